package s3blob_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/hubform/hubform/handlers/hub/s3blob"
	"github.com/hubform/hubform/handlers/hub/s3blob/s3test"
)

// TestBucketCORSRules sets on a gateway bucket the CORS rules that the
// operations guide gives, and sends what a browser on a listed site sends
// before and with an upload to a presigned URL: the preflight is allowed,
// and the PUT's answer lets the page read it. A site not listed is not
// allowed.
func TestBucketCORSRules(t *testing.T) {
	guide, err := os.ReadFile("../OPERATIONS.md")
	if err != nil {
		t.Fatal(err)
	}
	block := regexp.MustCompile("(?s)### CORS rules for the bucket\n.*?```json\n(.*?)```").FindSubmatch(guide)
	if block == nil {
		t.Fatal("the operations guide has no CORS rules for the bucket")
	}
	var rules struct {
		CORSRules []struct {
			AllowedOrigins, AllowedMethods, AllowedHeaders, ExposeHeaders []string
			MaxAgeSeconds                                                 int32
		}
	}
	if err := json.Unmarshal(block[1], &rules); err != nil || len(rules.CORSRules) == 0 {
		t.Fatalf("the guide's CORS rules: %v", err)
	}
	var cors types.CORSConfiguration
	for _, r := range rules.CORSRules {
		cors.CORSRules = append(cors.CORSRules, types.CORSRule{AllowedOrigins: r.AllowedOrigins, AllowedMethods: r.AllowedMethods,
			AllowedHeaders: r.AllowedHeaders, ExposeHeaders: r.ExposeHeaders, MaxAgeSeconds: aws.Int32(r.MaxAgeSeconds)})
	}
	ctx := context.Background()
	u := s3test.URL(t)
	client, bucket := s3test.Client(t, u)
	if _, err := client.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: aws.String(bucket), CORSConfiguration: &cors}); err != nil {
		t.Fatalf("PutBucketCors: %v", err)
	}
	b, err := s3blob.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	body := randomBytes(1000)
	signed, err := b.SignedPutURL(ctx, upload("uploads/acme/contact/0c0r/cv.pdf", "application/pdf", int64(len(body))), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	site := rules.CORSRules[0].AllowedOrigins[0]
	preflight := func(origin string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodOptions, signed, nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "PUT")
		req.Header.Set("Access-Control-Request-Headers", "content-type")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	res := preflight(site)
	if res.StatusCode/100 != 2 || res.Header.Get("Access-Control-Allow-Origin") != site || !strings.Contains(res.Header.Get("Access-Control-Allow-Methods"), "PUT") {
		t.Errorf("preflight from %s: %s, Allow-Origin %q, Allow-Methods %q", site, res.Status, res.Header.Get("Access-Control-Allow-Origin"), res.Header.Get("Access-Control-Allow-Methods"))
	}
	if res := preflight("https://elsewhere.example"); res.Header.Get("Access-Control-Allow-Origin") != "" && res.StatusCode/100 == 2 {
		t.Errorf("preflight from a site not listed: %s, Allow-Origin %q", res.Status, res.Header.Get("Access-Control-Allow-Origin"))
	}
	req, _ := http.NewRequest(http.MethodPut, signed, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/pdf")
	req.Header.Set("Origin", site)
	put, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	put.Body.Close()
	if put.StatusCode != http.StatusOK || put.Header.Get("Access-Control-Allow-Origin") != site || !strings.Contains(strings.ToLower(put.Header.Get("Access-Control-Expose-Headers")), "etag") {
		t.Errorf("PUT from %s: %s, Allow-Origin %q, Expose-Headers %q", site, put.Status, put.Header.Get("Access-Control-Allow-Origin"), put.Header.Get("Access-Control-Expose-Headers"))
	}
}
