package sql

import (
	"fmt"
	"math/rand/v2"
)

// Ref is the reference a prompt carries for the verifiers (Prompt.Ref).
type Ref struct {
	Query   string // the reference query, in the task's one canonical style
	Ordered bool   // the reference has ORDER BY: result rows compare in order
	Kind    string // filter, join, group or order
	Think   string // the short plan a demonstration writes in <think>
}

// question is one generated question with its reference.
type question struct {
	text string
	Ref
}

// template makes one kind of question from the dataset, picking literals
// that select at least one row.
type template func(r *rand.Rand, d *dataset) question

// kind is a kind of query and the templates that ask for it.
type kind struct {
	name      string
	templates []template
}

// kinds groups the templates by the kind of query they ask for; the
// generator picks a kind, then a template, uniformly (among those the
// difficulty settings keep).
var kinds = []kind{
	{"filter", []template{
		func(r *rand.Rand, d *dataset) question {
			c := pick(r, d.customers).city
			return q(fmt.Sprintf(pick(r, []string{"List the names of customers in %s.", "Which customers live in %s?"}), c),
				fmt.Sprintf("SELECT name FROM customers WHERE city = '%s'", c), "filter customers by city")
		},
		func(r *rand.Rand, d *dataset) question {
			c := pick(r, d.customers).city
			return q(fmt.Sprintf("How many customers live in %s?", c),
				fmt.Sprintf("SELECT COUNT(*) FROM customers WHERE city = '%s'", c), "count customers in the city")
		},
		func(r *rand.Rand, d *dataset) question {
			p := pick(r, d.products)
			lim := price(p.cents/100*100 + 100)
			return q(fmt.Sprintf("List the names of %s products cheaper than %s.", p.category, lim),
				fmt.Sprintf("SELECT name FROM products WHERE category = '%s' AND price < %s", p.category, lim),
				"filter products by category and price")
		},
		func(r *rand.Rand, d *dataset) question {
			lim := price((pick(r, d.products).cents - 1) / 100 * 100)
			return q(fmt.Sprintf("List the names of products that cost more than %s.", lim),
				fmt.Sprintf("SELECT name FROM products WHERE price > %s", lim), "filter products by price")
		},
		func(r *rand.Rand, d *dataset) question {
			n := pick(r, d.orders).quantity
			return q(fmt.Sprintf("List the ids of orders with a quantity of at least %d.", n),
				fmt.Sprintf("SELECT id FROM orders WHERE quantity >= %d", n), "filter orders by quantity")
		},
		func(r *rand.Rand, d *dataset) question {
			y := pick(r, d.customers).joined[:4]
			return q(fmt.Sprintf("List the names of customers who joined in %s.", y),
				fmt.Sprintf("SELECT name FROM customers WHERE joined LIKE '%s%%'", y), "filter customers by join year")
		},
		func(r *rand.Rand, d *dataset) question {
			day := pick(r, d.orders).day
			return q(fmt.Sprintf("How many orders were placed on or after %s?", day),
				fmt.Sprintf("SELECT COUNT(*) FROM orders WHERE day >= '%s'", day), "count orders since the day")
		},
	}},
	{"join", []template{
		func(r *rand.Rand, d *dataset) question {
			id := pick(r, d.orders).product
			return q(fmt.Sprintf("List the names of customers who ordered product %d.", id),
				fmt.Sprintf("SELECT DISTINCT c.name FROM customers c JOIN orders o ON o.customer_id = c.id WHERE o.product_id = %d", id),
				"join customers with orders")
		},
		func(r *rand.Rand, d *dataset) question {
			id := pick(r, d.orders).customer
			return q(fmt.Sprintf("List the names of products ordered by customer %d.", id),
				fmt.Sprintf("SELECT DISTINCT p.name FROM products p JOIN orders o ON o.product_id = p.id WHERE o.customer_id = %d", id),
				"join products with orders")
		},
		func(r *rand.Rand, d *dataset) question {
			c := d.customers[pick(r, d.orders).customer-1].city
			return q(fmt.Sprintf("List the ids of orders placed by customers in %s.", c),
				fmt.Sprintf("SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city = '%s'", c),
				"join orders with customers")
		},
		func(r *rand.Rand, d *dataset) question {
			cat := d.products[pick(r, d.orders).product-1].category
			return q(fmt.Sprintf("How many orders were placed for %s products?", cat),
				fmt.Sprintf("SELECT COUNT(*) FROM orders o JOIN products p ON p.id = o.product_id WHERE p.category = '%s'", cat),
				"count orders in a category")
		},
	}},
	{"group", []template{
		func(r *rand.Rand, d *dataset) question {
			y := pick(r, d.customers).joined[:4]
			return q(fmt.Sprintf("How many customers joined in or after %s in each city?", y),
				fmt.Sprintf("SELECT city, COUNT(*) FROM customers WHERE joined >= '%s' GROUP BY city", y),
				"group customers by city and count")
		},
		func(r *rand.Rand, d *dataset) question {
			lim := price(pick(r, d.products).cents/100*100 + 100)
			return q(fmt.Sprintf("What is the average price of products under %s in each category?", lim),
				fmt.Sprintf("SELECT category, AVG(price) FROM products WHERE price < %s GROUP BY category", lim),
				"group products by category and average")
		},
		func(r *rand.Rand, d *dataset) question {
			day := pick(r, d.orders).day
			return q(fmt.Sprintf("What is the total quantity of each product ordered since %s?", day),
				fmt.Sprintf("SELECT product_id, SUM(quantity) FROM orders WHERE day >= '%s' GROUP BY product_id", day),
				"group orders by product and sum")
		},
		func(r *rand.Rand, d *dataset) question {
			n := d.cityCount(pick(r, d.customers).city) - 1
			return q(fmt.Sprintf("Which cities have more than %d customers?", n),
				fmt.Sprintf("SELECT city FROM customers GROUP BY city HAVING COUNT(*) > %d", n),
				"group customers by city, keep big ones")
		},
		func(r *rand.Rand, d *dataset) question {
			n := d.cityOrders(d.customers[pick(r, d.orders).customer-1].city) - 1
			return q(fmt.Sprintf("Which cities placed more than %d orders?", n),
				fmt.Sprintf("SELECT c.city FROM orders o JOIN customers c ON c.id = o.customer_id GROUP BY c.city HAVING COUNT(*) > %d", n),
				"group orders by city")
		},
	}},
	{"order", []template{
		func(r *rand.Rand, d *dataset) question {
			k := 2 + r.IntN(7)
			return ordered(q(fmt.Sprintf("List the top %d products by price.", k),
				fmt.Sprintf("SELECT name FROM products ORDER BY price DESC LIMIT %d", k), "sort products by price, keep the top"))
		},
		func(r *rand.Rand, d *dataset) question {
			k, cat := 2+r.IntN(4), pick(r, categories)
			return ordered(q(fmt.Sprintf("List the %d cheapest %s products.", k, cat),
				fmt.Sprintf("SELECT name FROM products WHERE category = '%s' ORDER BY price LIMIT %d", cat, k),
				"filter by category, sort by price"))
		},
		func(r *rand.Rand, d *dataset) question {
			k := 2 + r.IntN(9)
			return ordered(q(fmt.Sprintf("List the ids of the %d most recent orders.", k),
				fmt.Sprintf("SELECT id FROM orders ORDER BY day DESC LIMIT %d", k), "sort orders by day, newest first"))
		},
		func(r *rand.Rand, d *dataset) question {
			k := 2 + r.IntN(7)
			return ordered(q(fmt.Sprintf("List the names of the %d customers who joined first.", k),
				fmt.Sprintf("SELECT name FROM customers ORDER BY joined LIMIT %d", k), "sort customers by join day"))
		},
		func(r *rand.Rand, d *dataset) question {
			k, c := 2+r.IntN(3), pick(r, d.customers).city
			return ordered(q(fmt.Sprintf("List the names of the %d customers in %s who joined last.", k, c),
				fmt.Sprintf("SELECT name FROM customers WHERE city = '%s' ORDER BY joined DESC LIMIT %d", c, k),
				"filter by city, sort by join day"))
		},
	}},
}

func q(text, query, think string) question {
	return question{text: text, Ref: Ref{Query: query, Think: think}}
}

func ordered(x question) question {
	x.Ordered = true
	return x
}

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// draw makes one random question of one of ks.
func draw(r *rand.Rand, d *dataset, ks []kind) question {
	k := ks[r.IntN(len(ks))]
	x := pick(r, k.templates)(r, d)
	x.Kind = k.name
	return x
}

// promptText is what the policy reads: the schema, then the question.
func promptText(question string) string {
	return Schema + "\nQuestion: " + question
}

// cityCount is the number of customers in city.
func (d *dataset) cityCount(city string) int {
	n := 0
	for _, c := range d.customers {
		if c.city == city {
			n++
		}
	}
	return n
}

// cityOrders is the number of orders placed by customers in city.
func (d *dataset) cityOrders(city string) int {
	n := 0
	for _, o := range d.orders {
		if d.customers[o.customer-1].city == city {
			n++
		}
	}
	return n
}
