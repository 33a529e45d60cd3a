package toolcall_test

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/task"
	_ "github.com/credo-rl/credo/task/toolcall" // registers the task
)

// Example shows a generated prompt, two responses and their verdicts on both
// rewards, with the text each verdict's first span points at.
func Example() {
	t, err := task.New("toolcall", task.Config{Seed: 1})
	if err != nil {
		panic(err)
	}
	p := t.Prompt(task.Train, 0)
	fmt.Println(p.Text)
	for _, resp := range []string{
		`<think>weather in Oslo</think><tool_call>{"name":"weather","arguments":{"city":"oslo"}}</tool_call>`,
		`<think>weather in Oslo</think><tool_call>{"name":"weather","arguments":{"city":"Oslo","unit":"kelvin"}}</tool_call>`,
	} {
		fmt.Println("\n" + resp)
		for _, v := range t.Rewards() {
			verdict, err := v.Verify(context.Background(), p, resp)
			if err != nil {
				panic(err)
			}
			s := verdict.Spans[0]
			fmt.Printf("%s: %g at %s", v.Name(), verdict.Score, resp[s.Start:s.End])
			if verdict.Reason != "" {
				fmt.Printf(" (%s)", verdict.Reason)
			}
			fmt.Println()
		}
	}
	verdict, _ := t.Rewards()[1].Verify(context.Background(), p, "")
	fmt.Println("\n" + verdict.Info)
	// Output:
	// Tools: weather(city,unit?:celsius|fahrenheit); convert(amount:float,from,to)
	// User: How is the weather in Oslo today?
	//
	// <think>weather in Oslo</think><tool_call>{"name":"weather","arguments":{"city":"oslo"}}</tool_call>
	// format: 1 at <think>
	// call: 1 at "weather"
	//
	// <think>weather in Oslo</think><tool_call>{"name":"weather","arguments":{"city":"Oslo","unit":"kelvin"}}</tool_call>
	// format: 1 at <think>
	// call: 0 at "unit":"kelvin" (argument "unit": "kelvin" not among ["","celsius"])
	//
	// Reference call: {"name":"weather","arguments":{"city":"Oslo"}}
}
