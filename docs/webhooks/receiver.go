// A webhook receiver for the one-time-secret service, in Go with the standard library only.
// Run: WEBHOOK_SECRET=whsec_... PORT=8080 go run receiver.go
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"time"
)

const toleranceMs = 300_000 // `t` is in MILLISECONDS since the epoch, not seconds.

var v1Pattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

func verify(rawBody []byte, header, secret string, nowMs int64) bool {
	if secret == "" || header == "" {
		return false
	}
	var timestamp string
	var signatures [][]byte
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(part, "=")
		switch {
		case key == "t":
			timestamp = value
		case key == "v1" && v1Pattern.MatchString(value):
			signature, _ := hex.DecodeString(value)
			signatures = append(signatures, signature)
		}
	}
	t, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || t < 0 || nowMs-t > toleranceMs || t-nowMs > toleranceMs {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp + "."))
	mac.Write(rawBody)
	expected := mac.Sum(nil)
	for _, candidate := range signatures {
		if hmac.Equal(expected, candidate) {
			return true
		}
	}
	return false
}

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		rawBody, err := io.ReadAll(r.Body) // verify the raw bytes, before any JSON parsing
		if err != nil || !verify(rawBody, r.Header.Get("x-svc-signature"), secret, time.Now().UnixMilli()) {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		// Answer at once; do the work afterwards. Deliveries may repeat: x-svc-event-id is the same on every retry.
		w.WriteHeader(http.StatusOK)
		var event struct{ Event string }
		if json.Unmarshal(rawBody, &event) == nil {
			fmt.Printf("verified %s %s\n", event.Event, r.Header.Get("x-svc-event-id"))
		}
	})
	port := os.Getenv("PORT")
	if port == "" {
		port = "8080"
	}
	fmt.Println("listening on " + port)
	if err := http.ListenAndServe("127.0.0.1:"+port, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
