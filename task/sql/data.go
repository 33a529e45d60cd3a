package sql

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"time"
)

// Schema is the database's shape as every prompt states it.
const Schema = "Tables: customers(id, name, city, joined); products(id, name, category, price); " +
	"orders(id, customer_id, product_id, quantity, day)"

// ddl creates the tables. Dates are ISO text (declared TEXT, so the driver
// hands them back as strings); prices are REAL with two decimals.
const ddl = `CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT NOT NULL, joined TEXT NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category TEXT NOT NULL, price REAL NOT NULL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
  product_id INTEGER NOT NULL REFERENCES products(id), quantity INTEGER NOT NULL, day TEXT NOT NULL);`

// Sizes of the generated tables.
const (
	nCustomers = 200
	nPerCat    = 10 // products per category
	nOrders    = 500
)

type customer struct {
	id                 int
	name, city, joined string
}

type product struct {
	id             int
	name, category string
	cents          int // price in cents; distinct across products, so ORDER BY price has no ties
}

type order struct {
	id, customer, product, quantity int
	day                             string
}

// dataset is the database's content, kept in memory too so the prompt
// generator can pick literals that select something.
type dataset struct {
	customers []customer
	products  []product
	orders    []order
	cities    []string
}

var (
	cities     = []string{"Lyon", "Paris", "Berlin", "Madrid", "Rome", "Oslo", "Lisbon", "Vienna", "Prague", "Dublin"}
	firstNames = []string{"Ada", "Ben", "Chloe", "David", "Emma", "Felix", "Grace", "Hugo", "Iris", "Jonas",
		"Klara", "Leo", "Mia", "Nils", "Olga", "Paul", "Rosa", "Sami", "Tara", "Umar", "Vera", "Wim", "Yara", "Zoe"}
	lastNames = []string{"Adler", "Baker", "Costa", "Dubois", "Eriksen", "Fischer", "Garcia", "Hansen", "Ivanov",
		"Jensen", "Keller", "Lopez", "Moreau", "Novak", "Olsen", "Petit", "Rossi", "Silva", "Torres", "Weber"}
	categories = []string{"book", "toy", "tool", "garden", "kitchen", "sport"}
	nouns      = map[string][]string{
		"book":    {"Atlas", "Novel", "Cookbook", "Diary", "Almanac"},
		"toy":     {"Kite", "Puzzle", "Robot", "Yoyo", "Train"},
		"tool":    {"Hammer", "Drill", "Wrench", "Saw", "Ladder"},
		"garden":  {"Rake", "Hose", "Planter", "Shovel", "Bench"},
		"kitchen": {"Kettle", "Pan", "Teapot", "Grater", "Blender"},
		"sport":   {"Ball", "Racket", "Helmet", "Bike", "Tent"},
	}
	adjectives = []string{"Blue", "Red", "Green", "Small", "Large", "Classic", "Smart", "Quiet", "Golden", "Silver"}
	// priceRange is each category's price range in cents.
	priceRange = map[string][2]int{
		"book": {499, 4999}, "toy": {599, 7999}, "tool": {999, 19999},
		"garden": {499, 14999}, "kitchen": {699, 11999}, "sport": {999, 29999},
	}
)

// generate makes the dataset for a seed. Customer names, product prices,
// join days and order days are all distinct, so that names identify
// customers and ORDER BY on price, joined or day never meets a tie.
func generate(seed uint64) *dataset {
	r := rand.New(rand.NewPCG(seed, streamData))
	d := &dataset{cities: cities}

	names := make([]string, 0, len(firstNames)*len(lastNames))
	for _, f := range firstNames {
		for _, l := range lastNames {
			names = append(names, f+" "+l)
		}
	}
	r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	joined := distinctDays(r, date(2018, 1, 1), date(2023, 12, 31), nCustomers)
	for i := range nCustomers {
		// Cities are skewed (Lyon and Paris are big), so group counts differ.
		c := cities[min(r.IntN(len(cities)), r.IntN(len(cities)+3))%len(cities)]
		d.customers = append(d.customers, customer{id: i + 1, name: names[i], city: c, joined: joined[i]})
	}

	used := map[int]bool{}
	for _, cat := range categories {
		combos := make([]string, 0, len(adjectives)*len(nouns[cat]))
		for _, a := range adjectives {
			for _, n := range nouns[cat] {
				combos = append(combos, a+" "+n)
			}
		}
		r.Shuffle(len(combos), func(i, j int) { combos[i], combos[j] = combos[j], combos[i] })
		lo, hi := priceRange[cat][0], priceRange[cat][1]
		for _, name := range combos[:nPerCat] {
			cents := lo + r.IntN(hi-lo)
			for used[cents] {
				cents = lo + r.IntN(hi-lo)
			}
			used[cents] = true
			d.products = append(d.products, product{id: len(d.products) + 1, name: name, category: cat, cents: cents})
		}
	}

	days := distinctDays(r, date(2022, 1, 1), date(2024, 12, 31), nOrders)
	sort.Strings(days) // order ids follow time, as they would in a shop
	for i := range nOrders {
		q := 1 + r.IntN(3)
		if r.IntN(4) == 0 {
			q += r.IntN(7)
		}
		d.orders = append(d.orders, order{
			id: i + 1, customer: 1 + r.IntN(nCustomers), product: 1 + r.IntN(len(d.products)),
			quantity: q, day: days[i],
		})
	}
	return d
}

func date(y int, m time.Month, day int) time.Time { return time.Date(y, m, day, 0, 0, 0, 0, time.UTC) }

// distinctDays draws n distinct days in [from, to] as YYYY-MM-DD, in draw order.
func distinctDays(r *rand.Rand, from, to time.Time, n int) []string {
	span := int(to.Sub(from).Hours()/24) + 1
	out := make([]string, n)
	for i, k := range r.Perm(span)[:n] {
		out[i] = from.AddDate(0, 0, k).Format(time.DateOnly)
	}
	return out
}

// price renders cents as SQL and prompt text: 23.5 for 2350, 19.99 for 1999.
func price(cents int) string {
	if cents%100 == 0 {
		return fmt.Sprint(cents / 100)
	}
	s := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return s
}
