package ifeval

// topic is one subject of generated prompts with the small vocabulary its
// demonstrations are written in. Words are plain English and avoid the
// function words of other languages, so that the lowercase reward's English
// check reads the demonstrations as English.
type topic struct {
	name  string   // as used in a request: "the sea"
	nouns []string // singular; keywords are drawn from them
	adjs  []string
}

var topics = []topic{
	{"the sea", []string{"wave", "shell", "boat", "sand", "fish", "wind", "tide"}, []string{"blue", "calm", "deep", "cold", "wide", "salty"}},
	{"the forest", []string{"tree", "leaf", "bird", "path", "moss", "deer"}, []string{"green", "tall", "quiet", "dark", "old"}},
	{"the city", []string{"street", "bus", "tower", "park", "bridge", "shop"}, []string{"busy", "loud", "bright", "big", "new"}},
	{"rain", []string{"cloud", "drop", "puddle", "umbrella", "roof", "storm"}, []string{"wet", "grey", "soft", "heavy", "cool"}},
	{"coffee", []string{"cup", "bean", "mug", "milk", "sugar", "kettle"}, []string{"hot", "strong", "dark", "bitter", "warm"}},
	{"trains", []string{"train", "track", "station", "ticket", "engine", "seat"}, []string{"fast", "long", "loud", "red", "early"}},
	{"winter", []string{"snow", "ice", "coat", "fire", "scarf", "sled"}, []string{"cold", "white", "long", "dark", "frozen"}},
	{"the garden", []string{"flower", "rose", "seed", "soil", "bee", "fence"}, []string{"green", "sunny", "small", "bright", "fresh"}},
	{"music", []string{"song", "drum", "piano", "guitar", "note", "band"}, []string{"loud", "soft", "happy", "slow", "sweet"}},
	{"the mountains", []string{"peak", "rock", "trail", "snow", "lake", "cliff"}, []string{"high", "steep", "cold", "tall", "rocky"}},
	{"cats", []string{"cat", "kitten", "paw", "tail", "whisker", "mouse"}, []string{"soft", "lazy", "small", "curious", "quiet"}},
	{"bread", []string{"loaf", "oven", "crust", "flour", "butter", "baker"}, []string{"warm", "fresh", "soft", "brown", "golden"}},
	{"the river", []string{"water", "stone", "fish", "bank", "bridge", "boat"}, []string{"wide", "slow", "clear", "cold", "long"}},
	{"the stars", []string{"star", "moon", "sky", "night", "planet", "comet"}, []string{"bright", "far", "dark", "clear", "silver"}},
	{"school", []string{"teacher", "book", "desk", "lesson", "pencil", "class"}, []string{"new", "busy", "quiet", "long", "big"}},
	{"the market", []string{"fruit", "apple", "stall", "cheese", "seller", "basket"}, []string{"busy", "fresh", "cheap", "loud", "sweet"}},
}

// requests are the opening sentences of generated prompts.
var requests = []string{"Write about %s.", "Write a short text about %s.", "Tell me about %s.", "Describe %s."}

// endPhrases are endings a small model can copy; none has a comma, so they
// combine with no_comma.
var endPhrases = []string{
	"That is all.", "Any other questions?", "Thank you for reading.", "Is there anything else I can help with?",
	"Hope you agree with me.", "Does this make sense?", "So what is next?", "Peace!",
}

// bodyTemplates are the sentences of demonstrations: {N}, {M}, {K} are
// distinct nouns, {A} and {B} adjectives, and "{,}" is a place where a
// writer might put a comma. "a" becomes "an" before a vowel.
var bodyTemplates = []string{
	"In the morning{,} the {N} is {A}.",
	"The {N} is {A}{,} and the {M} is {B}.",
	"I like the {A} {N}{,} and so do my friends.",
	"We can see the {N}{,} the {M} and the {K}.",
	"Every day{,} the {N} looks {A}.",
	"There is a {A} {N} here{,} and it is nice.",
	"My friend loves the {N}{,} and I do too.",
	"The {A} {N} is near the {M}.",
	"Today{,} we talk about the {N}.",
	"The {N} and the {M} are {A}.",
}

// bulletTemplates are the bullet points of demonstrations.
var bulletTemplates = []string{"The {A} {N}", "A {A} {N}", "The {N} and the {M}", "One {A} {N}", "The {N} is {A}"}

// titleTemplates are the titles of demonstrations.
var titleTemplates = []string{"The {A} {N}", "A {A} {N}", "The {N} and the {M}", "A Day of {N}"}

// endFlawTails are sentences a careless writer adds after the end phrase.
var endFlawTails = []string{"I hope you like it.", "Have a nice day.", "Bye."}
