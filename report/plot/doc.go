// Package plot draws the report's small pictures: line charts as inline
// SVG (Chart: axes with round ticks, a band and a line per series, exact
// values in hover titles), token heat strips as HTML (TokenLine: each
// token's value as its background on a sequential or diverging scale,
// whitespace kept visible), and the methods' colours and dash patterns, so
// that a method looks the same in every chart and legend. It imports only
// the standard library; report imports it.
package plot
