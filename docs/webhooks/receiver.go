// A webhook receiver for the one-time-secret service, in Go with the standard library only.
// Run: WEBHOOK_SECRET=whsec_... PORT=8080 go run receiver.go
//
// It accepts a delivery that either signature verifies: ours (x-svc-signature) or the Standard
// Webhooks one (webhook-signature); keep the one you use. The Standard Webhooks Go library
// (github.com/standard-webhooks/standard-webhooks/libraries/go) does what verifyStandard does.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
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
const standardToleranceS = 300 // webhook-timestamp is in SECONDS.

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

func verifyStandard(rawBody []byte, header http.Header, secret string, nowS int64) bool {
	eventID, timestamp := header.Get("webhook-id"), header.Get("webhook-timestamp")
	encodedKey, ok := strings.CutPrefix(secret, "whsec_")
	key, err := base64.StdEncoding.DecodeString(encodedKey)
	t, tErr := strconv.ParseInt(timestamp, 10, 64)
	if !ok || err != nil || len(key) == 0 || eventID == "" || tErr != nil || nowS-t > standardToleranceS || t-nowS > standardToleranceS {
		return false
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(eventID + "." + timestamp + "."))
	mac.Write(rawBody)
	expected := []byte("v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	for _, candidate := range strings.Split(header.Get("webhook-signature"), " ") {
		if hmac.Equal(expected, []byte(candidate)) {
			return true
		}
	}
	return false
}

func main() {
	secret := os.Getenv("WEBHOOK_SECRET")
	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		rawBody, err := io.ReadAll(r.Body) // verify the raw bytes, before any JSON parsing
		verified := verify(rawBody, r.Header.Get("x-svc-signature"), secret, time.Now().UnixMilli()) ||
			verifyStandard(rawBody, r.Header, secret, time.Now().Unix())
		if err != nil || !verified {
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
