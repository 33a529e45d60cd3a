package task

// DemoLacker is an optional capability of tasks that may have no
// demonstrations to give (a file of records without reference responses,
// such as IFEval's): NoDemos says why, or is nil when Demos gives some.
// Supervised warm-up asks it before it starts. Find it by type assertion.
type DemoLacker interface {
	NoDemos() error
}
