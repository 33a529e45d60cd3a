package remote_test

import (
	"context"
	"encoding/json"
	"fmt"
	_ "github.com/credo-rl/credo/reward/remote" // registers the "remote" verifier kind
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// A verifier of one's own: here an HTTP handler on 127.0.0.1 that rewards
// a response saying "yes" and points at the word.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct{ Response string }
		json.NewDecoder(r.Body).Decode(&req)
		i := strings.Index(req.Response, "yes")
		if i < 0 {
			fmt.Fprint(w, `{"score": 0, "reason": "no yes"}`)
			return
		}
		fmt.Fprintf(w, `{"score": 1, "spans": [{"start": %d, "end": %d, "effect": "+"}], "info": "Say yes."}`, i, i+3)
	}))
	defer srv.Close()

	v, err := reward.New("remote", "name=yes,url="+srv.URL+"/verify,timeout=5s")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := v.Verify(context.Background(), reward.Prompt{ID: "1", Text: "Agree?"}, "Oh yes.")
	fmt.Println(d.Score, d.Spans, d.Info, err)
	// Output: 1 [{3 6 0 1}] Say yes. <nil>
}
