// Package s3test gives tests a real S3-compatible bucket: versitygw serving
// a temporary directory on a loopback port. Unlike in-memory fakes, the
// gateway checks presigned URLs the way S3 does, signature, expiry and
// signed headers included.
//
// versitygw is found on PATH or in $(go env GOPATH)/bin; `make versitygw`
// installs it. Without it the tests that need a bucket are skipped, unless
// HUBFORM_S3_TESTS=1, when they fail.
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hubform/hubform/handlers/hub/internal/testprograms"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"

	"github.com/hubform/hubform/handlers/hub/testkit"
)

// Credentials and region of every gateway URL starts. They are set in the
// environment, where the AWS SDK and child processes find them.
const (
	AccessKeyID     = "hubformtest"
	SecretAccessKey = "hubformtest-secret-0123456789abcdef"
	Region          = "us-east-1"
)

// URL starts a versitygw gateway over a fresh directory, creates an empty
// bucket in it and returns the bucket's URL for s3blob.Open:
//
//	s3://hubform-0a1b2c3d4e5f?endpoint=http://127.0.0.1:PORT&region=us-east-1
//
// It sets AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY with t.Setenv, so
// neither t nor its parents may be parallel. The gateway stops when t ends.
func URL(t testing.TB) string {
	t.Helper()
	bin, err := testprograms.Find("versitygw")
	if err != nil {
		if os.Getenv("HUBFORM_S3_TESTS") == "1" {
			t.Fatalf("s3test: %v (run make versitygw)", err)
		}
		t.Skipf("s3test: %v; run make versitygw, or set HUBFORM_S3_TESTS=1 to make this a failure", err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", AccessKeyID)
	t.Setenv("AWS_SECRET_ACCESS_KEY", SecretAccessKey)
	// A session token or profile from the developer's shell would be sent
	// with the test credentials and spoil every signature.
	t.Setenv("AWS_SESSION_TOKEN", "")
	t.Setenv("AWS_PROFILE", "")
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)

	endpoint := start(t, bin)
	bucket := "hubform-" + randomHex(6)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	client := newClient(endpoint)
	if _, err := client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil {
		t.Fatalf("s3test: create bucket %s: %v", bucket, err)
	}
	return fmt.Sprintf("s3://%s?endpoint=%s&region=%s", bucket, endpoint, Region)
}

// start runs the gateway on a free loopback port and returns its endpoint
// once it answers. The port is chosen by listening and closing, so another
// process can take it meanwhile; then the gateway exits and start tries
// another.
func start(t testing.TB, bin string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "gw")
	if err := os.Mkdir(root, 0o750); err != nil {
		t.Fatal(err)
	}
	var lastLog string
	for range 3 {
		addr, err := testkit.FreeAddr()
		if err != nil {
			t.Fatal(err)
		}
		log := &testkit.Buffer{}
		// --quiet drops the per-request log. The posix backend keeps
		// each bucket as a directory of root and metadata in xattrs.
		cmd := exec.Command(bin, "--port", addr, "--access", AccessKeyID, "--secret", SecretAccessKey,
			"--region", Region, "--quiet", "posix", root)
		cmd.Stdout, cmd.Stderr = log, log
		if err := cmd.Start(); err != nil {
			t.Fatalf("s3test: start %s: %v", bin, err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		stop := func() {
			cmd.Process.Kill()
			<-exited
		}
		endpoint := "http://" + addr
		if testkit.WaitReady(15*time.Second, exited, func() bool { return serves(endpoint) }) {
			t.Cleanup(stop)
			return endpoint
		}
		stop()
		lastLog = log.String()
	}
	t.Fatalf("s3test: versitygw did not start; its output:\n%s", lastLog)
	return ""
}

// serves reports whether endpoint answers HTTP: any answer, even 403 to an
// unsigned request, means it serves.
func serves(endpoint string) bool {
	client := &http.Client{Timeout: time.Second}
	res, err := client.Get(endpoint + "/")
	if err != nil {
		return false
	}
	res.Body.Close()
	return true
}

func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Client returns a client of the gateway of bucketURL, which URL returned,
// and the bucket's name: for what a test does to the bucket that the hub
// never does, such as setting its CORS rules.
func Client(t testing.TB, bucketURL string) (*s3.Client, string) {
	t.Helper()
	u, err := url.Parse(bucketURL)
	if err != nil || u.Query().Get("endpoint") == "" {
		t.Fatalf("s3test: %q is not a URL that URL returned", bucketURL)
	}
	return newClient(u.Query().Get("endpoint")), u.Host
}

func newClient(endpoint string) *s3.Client {
	return s3.New(s3.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return aws.Credentials{AccessKeyID: AccessKeyID, SecretAccessKey: SecretAccessKey}, nil
		}),
	})
}

// AllowBrowsers gives the bucket of bucketURL CORS rules that let a page
// on any origin PUT files to its presigned URLs, as a browser that sends
// files straight to the bucket does.
func AllowBrowsers(t testing.TB, bucketURL string) {
	t.Helper()
	client, bucket := Client(t, bucketURL)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := client.PutBucketCors(ctx, &s3.PutBucketCorsInput{Bucket: aws.String(bucket), CORSConfiguration: &types.CORSConfiguration{
		CORSRules: []types.CORSRule{{AllowedOrigins: []string{"*"}, AllowedMethods: []string{"PUT"}, AllowedHeaders: []string{"Content-Type"}, ExposeHeaders: []string{"ETag"}}},
	}}); err != nil {
		t.Fatalf("s3test: put bucket CORS: %v", err)
	}
}

// Litestream returns the path of the litestream program, which replicates
// SQLite to a bucket (`make litestream` installs it); without it the test
// is skipped, unless HUBFORM_S3_TESTS=1, when it fails.
func Litestream(t testing.TB) string {
	t.Helper()
	bin, err := testprograms.Find("litestream")
	if err != nil {
		if os.Getenv("HUBFORM_S3_TESTS") == "1" {
			t.Fatalf("s3test: %v (run make litestream)", err)
		}
		t.Skipf("s3test: %v; run make litestream, or set HUBFORM_S3_TESTS=1 to make this a failure", err)
	}
	return bin
}
