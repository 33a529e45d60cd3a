// Package tasktest holds test helpers shared by the tasks: the rendering
// of a task's prompt and demonstration stream that pins a task's default
// difficulty to the prompts it produced before it had settings.
//
// It imports task; only tests use it.
package tasktest
