package sql_test

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/sql"
)

func Example() {
	tk, err := sql.Open(task.Config{Seed: 1}, sql.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tk.Close() // closes the pool and removes the temporary database
	ctx := context.Background()

	p := tk.Prompt(task.Train, 0)
	fmt.Println(p.Text)
	ref := p.Ref.(sql.Ref)
	good := "<think>" + ref.Think + "</think><answer>" + ref.Query + "</answer>"
	for _, v := range tk.Rewards() {
		vd, _ := v.Verify(ctx, p, good)
		fmt.Println(v.Name(), vd.Score)
	}

	bad := "<think>filter customers</think><answer>SELECT nmae FROM customers</answer>"
	vd, _ := tk.Rewards()[1].Verify(ctx, p, bad)
	s := vd.Spans[0]
	fmt.Printf("executes %v, %s, blames %q\n", vd.Score, vd.Info, bad[s.Start:s.End])
	vd, _ = tk.Rewards()[1].Verify(ctx, p, "<think>x</think><answer>DROP TABLE customers</answer>")
	fmt.Println(vd.Info)
	// Output:
	// Tables: customers(id, name, city, joined); products(id, name, category, price); orders(id, customer_id, product_id, quantity, day)
	// Question: How many orders were placed for book products?
	// format 1
	// executes 1
	// result 1
	// executes 0, Error: no such column: nmae, blames "nmae"
	// Error: only SELECT queries are allowed, not DROP
}
