package ifeval

import "testing"

func TestDetectLanguage(t *testing.T) {
	tests := []struct{ text, want string }{
		{"This is a good day and I am happy.", "en"},
		{"Hoy es un día bonito y estoy muy feliz.", "es"},
		{"C'est une belle journée et je suis très heureux.", "fr"},
		{"Das ist ein schöner Tag und ich bin sehr glücklich.", "de"},
		{"Questo è un bel giorno e sono molto felice.", "it"},
		{"Hoje é um dia bonito e eu estou muito feliz com você.", "pt"},
		{"Dzisiaj jest piękny dzień i jestem bardzo szczęśliwy.", "pl"},
		{"Tämä on hyvä päivä ja minä olen iloinen.", "fi"},
		{"Leo ni siku nzuri na mimi nina furaha sana.", "sw"},
		{"Hôm nay là một ngày đẹp và tôi rất vui.", "vi"},
		{"Это хороший день, и я очень счастлив, что мы здесь.", "ru"},
		{"Това е хубав ден и аз съм много щастлив, че сме тук.", "bg"},
		{"Це гарний день, і я дуже щасливий.", "uk"},
		{"هذا يوم جميل وأنا سعيد جدا في المدينة.", "ar"},
		{"این یک روز خوب است و من خیلی خوشحال هستم.", "fa"},
		{"یہ ایک اچھا دن ہے اور میں بہت خوش ہوں۔", "ur"},
		{"यह एक अच्छा दिन है और मैं बहुत खुश हूँ।", "hi"},
		{"मी आज शाळेत जात आहे आणि मला आनंद आहे.", "mr"},
		{"आज राम्रो दिन हो र म खुसी छु।", "ne"},
		{"আমি আজ স্কুলে যাচ্ছি।", "bn"},
		{"આજે સરસ દિવસ છે.", "gu"},
		{"ਅੱਜ ਚੰਗਾ ਦਿਨ ਹੈ।", "pa"},
		{"இன்று நல்ல நாள்.", "ta"},
		{"ఈ రోజు మంచి రోజు.", "te"},
		{"ಇಂದು ಒಳ್ಳೆಯ ದಿನ.", "kn"},
		{"ഇന്ന് നല്ല ദിവസം.", "ml"},
		{"วันนี้เป็นวันที่ดี", "th"},
		{"오늘은 좋은 날입니다. It is OK.", "ko"},
		{"今日はいい天気です。", "ja"},
		{"今天天气很好。", "zh-cn"},
		{"היום יום יפה.", "he"},
		{"Xyzzy plugh.", "en"}, // Latin letters with no evidence: English
	}
	for _, tt := range tests {
		got, ok := detectLanguage(tt.text)
		if !ok || got != tt.want {
			t.Errorf("detectLanguage(%q) = %q, %v, want %q", tt.text, got, ok, tt.want)
		}
	}
	for _, s := range []string{"", "123 456", "!!! ???", "\xff\xfe"} {
		if got, ok := detectLanguage(s); ok {
			t.Errorf("detectLanguage(%q) = %q, want undetermined", s, got)
		}
	}
}
