package judge

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func TestParseSpec(t *testing.T) {
	cases := []struct {
		spec    string
		check   func(Config) bool
		wantErr string // empty: no error
	}{
		{spec: "url=http://localhost:8000/v1,model=qwen", check: func(c Config) bool {
			return c.Name == "judge" && c.Weight == 1 && c.Min == 0 && c.Max == 1 && c.Timeout == 30*time.Second &&
				c.MaxRetries == 4 && c.MaxConcurrent == 4 && c.SchemaMode == SchemaAuto && c.CacheSize == DefaultCacheSize
		}},
		{spec: " name = style , url=https://api.example.com/v1?x=1&y=2 ,model=gpt,rubric=r.txt,weight=0.5,key_env=OPENAI_API_KEY,timeout=2m, ", check: func(c Config) bool {
			return c.Name == "style" && c.URL == "https://api.example.com/v1?x=1&y=2" && c.Model == "gpt" && c.Rubric == "r.txt" &&
				c.Weight == 0.5 && c.APIKeyEnv == "OPENAI_API_KEY" && c.Timeout == 2*time.Minute
		}},
		{spec: "url=http://h/v1,model=m,min=1,max=10,retries=0,cache=0,concurrency=16,temperature=0.3,max_tokens=512,seed=7,schema=off,backoff=1ms,backoff_max=1s", check: func(c Config) bool {
			return c.Min == 1 && c.Max == 10 && c.retries() == 0 && c.CacheSize < 0 && c.MaxConcurrent == 16 && c.Temperature == 0.3 &&
				c.MaxTokens == 512 && c.Seed == 7 && c.SchemaMode == SchemaOff && c.BackoffBase == time.Millisecond && c.BackoffMax == time.Second
		}},
		{spec: "url=http://h/v1,model=m,api_key=sk-123", wantErr: `unknown key "api_key"`},
		{spec: "url=http://h/v1,model=m,weight=heavy", wantErr: `weight="heavy": want a finite number`},
		{spec: "url=http://h/v1,model=m,weight=-1", wantErr: "weight -1"},
		{spec: "url=http://h/v1,model=m,weight=NaN", wantErr: "finite"},
		{spec: "url=http://h/v1,model=m,timeout=30", wantErr: "want a positive duration"},
		{spec: "url=http://h/v1,model=m,timeout=-1s", wantErr: "want a positive duration"},
		{spec: "url=http://h/v1,model=m,retries=-2", wantErr: "non-negative integer"},
		{spec: "url=http://h/v1,model=m,concurrency=0", wantErr: "positive integer"},
		{spec: "url=http://h/v1,model=m,seed=-1", wantErr: "non-negative integer"},
		{spec: "url=http://h/v1,model=m,min=5,max=5", wantErr: "min < max"},
		{spec: "url=http://h/v1,model=m,schema=json", wantErr: `schema_mode "json"`},
		{spec: "url=http://h/v1,model=m,name=a/b", wantErr: "must not contain '/'"},
		{spec: "url=http://h/v1,model=m,key_env=sk-abc=", wantErr: "name of an environment variable"},
		{spec: "url=http://h/v1,model=m,model=n", wantErr: `key "model" given twice`},
		{spec: "url=http://h/v1,model", wantErr: `"model" is not key=value`},
		{spec: "model=m", wantErr: "url: required"},
		{spec: "url=localhost:8000,model=m", wantErr: "want http:// or https://"},
		{spec: "url=http://h/v1", wantErr: "model: required"},
		{spec: "", wantErr: "url: required"},
	}
	for _, c := range cases {
		t.Run(c.spec, func(t *testing.T) {
			got, err := ParseSpec(c.spec)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, c.wantErr)
				}
				return
			}
			if err != nil || !c.check(got) {
				t.Fatalf("ParseSpec = %+v, %v", got, err)
			}
			back, err := ParseSpec(got.String())
			if err != nil || back != got {
				t.Errorf("String round trip: %q gives %+v, %v", got.String(), back, err)
			}
		})
	}
}

func TestUnknownKeyListsKnown(t *testing.T) {
	_, err := ParseSpec("url=http://h/v1,model=m,modle=x")
	if err == nil || !strings.Contains(err.Error(), "known: backoff, backoff_max, cache,") {
		t.Errorf("err %v", err)
	}
}

func TestConfigJSON(t *testing.T) {
	c := Config{Name: "n", URL: "http://h/v1", Model: "m", APIKeyEnv: "K", Timeout: 1500 * time.Millisecond, BackoffMax: time.Minute, Max: 10}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, `"timeout":"1.5s"`) || !strings.Contains(s, `"backoff_max":"1m0s"`) || strings.Contains(s, "backoff_base") {
		t.Errorf("JSON %s", s)
	}
	var back Config
	if err := json.Unmarshal(b, &back); err != nil || back != c {
		t.Errorf("round trip %+v, %v", back, err)
	}
	// Inside a larger configuration, as the trainer holds it.
	var run struct{ Judges []Config }
	if err := json.Unmarshal([]byte(`{"Judges": [{"name": "a", "url": "http://h/v1", "model": "m", "timeout": "2s"}]}`), &run); err != nil ||
		len(run.Judges) != 1 || run.Judges[0].Timeout != 2*time.Second {
		t.Errorf("nested: %+v, %v", run, err)
	}
	for _, bad := range []string{`{"timeout": "soon"}`, `{"timeout": 30}`, `{"weight": "x"}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

func TestValidateDefaults(t *testing.T) {
	c := Config{URL: "http://h/v1", Model: "m"}
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults rejected: %v", err)
	}
	c.Min, c.Max, c.Temperature, c.MaxTokens, c.Timeout = 3, 2, -1, -5, -time.Second
	err := c.Validate()
	for _, want := range []string{"score range", "temperature", "max_tokens", "timeout"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err %v lacks %q", err, want)
		}
	}
}

func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{
		"url=http://localhost:8000/v1,model=qwen",
		"name=a,url=https://h/v1,model=m,rubric=r.txt,weight=2,key_env=K,timeout=1s,retries=0,cache=0",
		"url=http://h/v1,model=m,min=-1,max=1e300,seed=18446744073709551615",
		",,=,url==,model=m=n,timeout=1h1m1s",
		"url=http://[::1]:80/v1,model=m,schema=on,backoff=1ns,backoff_max=9223372036s",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		c, err := ParseSpec(spec)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ParseSpec(%q) accepted an invalid config: %v", spec, err)
		}
		if c.Min >= c.Max || c.Timeout <= 0 || c.MaxConcurrent <= 0 {
			t.Fatalf("ParseSpec(%q) = %+v", spec, c)
		}
		// The canonical spec reads back to the same config unless a value
		// holds a comma or surrounding spaces, which a spec cannot carry.
		for _, v := range []string{c.Name, c.URL, c.Model, c.APIKeyEnv, c.Rubric} {
			if strings.Contains(v, ",") || strings.TrimSpace(v) != v {
				return
			}
		}
		back, err := ParseSpec(c.String())
		if err != nil || back != c {
			t.Fatalf("round trip of %q: %q gives %+v, %v; want %+v", spec, c.String(), back, err, c)
		}
	})
}
