package serve

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Error types, as OpenAI names them.
const (
	typeInvalid = "invalid_request_error"
	typeAuth    = "authentication_error"
	typeServer  = "server_error"
)

// apiError is an answer other than 200: its status and the body
// {"error": {"message", "type", "param", "code"}} that OpenAI clients parse.
type apiError struct {
	Status  int
	Message string
	Type    string
	Param   string // the request field at fault, if one is
	Code    string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.Status, e.Message) }

// badParam is a 400 blaming one request field.
func badParam(param, format string, a ...any) *apiError {
	return &apiError{Status: http.StatusBadRequest, Message: param + ": " + fmt.Sprintf(format, a...),
		Type: typeInvalid, Param: param, Code: "invalid_value"}
}

// errorBody is the JSON shape of an error answer; param and code are null
// when unknown, as OpenAI sends them.
type errorBody struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func (e *apiError) body() errorBody {
	var b errorBody
	b.Error.Message, b.Error.Type = e.Message, e.Type
	if e.Param != "" {
		b.Error.Param = &e.Param
	}
	if e.Code != "" {
		b.Error.Code = &e.Code
	}
	return b
}

// writeJSON sends v with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil { // only our own types are sent: this is a bug, say so
		status = http.StatusInternalServerError
		data = []byte(`{"error":{"message":"encode answer: ` + jsonEscape(err.Error()) + `","type":"server_error","param":null,"code":null}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(data, '\n'))
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
