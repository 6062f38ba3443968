package s3blob

import (
	"context"
	"net/url"
	"os"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

// TestClientQuery checks that the members of a bucket URL's query reach
// the client's options, as gocloud's s3blob URLs set them.
func TestClientQuery(t *testing.T) {
	t.Setenv("AWS_CONFIG_FILE", os.DevNull)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", os.DevNull)
	t.Setenv("AWS_PROFILE", "")
	tests := []struct {
		query string
		check func(o s3.Options, enc encryption) bool
	}{
		{"region=eu-central-1", func(o s3.Options, _ encryption) bool {
			return o.Region == "eu-central-1" && o.BaseEndpoint == nil && !o.UsePathStyle && o.Credentials != nil
		}},
		{"endpoint=http://127.0.0.1:7070&region=us-east-1&use_path_style=true", func(o s3.Options, _ encryption) bool {
			return aws.ToString(o.BaseEndpoint) == "http://127.0.0.1:7070" && o.UsePathStyle
		}},
		{"endpoint=http://127.0.0.1:7070&region=us-east-1&s3ForcePathStyle=true", func(o s3.Options, _ encryption) bool { return o.UsePathStyle }},
		{"endpoint=http://127.0.0.1:7070&region=us-east-1&hostname_immutable=true", func(o s3.Options, _ encryption) bool { return o.UsePathStyle }},
		{"endpoint=https://s3.example&region=us-east-1&use_path_style=false", func(o s3.Options, _ encryption) bool { return !o.UsePathStyle }},
		{"region=us-east-1&disable_https=true&accelerate=true", func(o s3.Options, _ encryption) bool {
			return o.EndpointOptions.DisableHTTPS && o.UseAccelerate
		}},
		{"region=us-east-1&dualstack=true&fips=true", func(o s3.Options, _ encryption) bool {
			return o.EndpointOptions.UseDualStackEndpoint == aws.DualStackEndpointStateEnabled &&
				o.EndpointOptions.UseFIPSEndpoint == aws.FIPSEndpointStateEnabled
		}},
		{"region=us-east-1&request_checksum_calculation=WHEN_REQUIRED&response_checksum_validation=when_required", func(o s3.Options, _ encryption) bool {
			return o.RequestChecksumCalculation == aws.RequestChecksumCalculationWhenRequired &&
				o.ResponseChecksumValidation == aws.ResponseChecksumValidationWhenRequired
		}},
		// The client signs nothing without credentials.
		{"region=us-east-1&anonymous=true", func(o s3.Options, _ encryption) bool { return o.Credentials == nil }},
		{"region=us-east-1&ssetype=aws:KMS&kmskeyid=key-1&awssdk=v2", func(_ s3.Options, enc encryption) bool {
			return enc.sse == types.ServerSideEncryptionAwsKms && aws.ToString(enc.kmsKey) == "key-1"
		}},
		{"region=us-east-1&rate_limiter_capacity=10", func(o s3.Options, _ encryption) bool { return o.Retryer != nil }},
	}
	for _, tt := range tests {
		q, _ := url.ParseQuery(tt.query)
		client, enc, err := newClient(context.Background(), q)
		if err != nil {
			t.Errorf("%s: %v", tt.query, err)
			continue
		}
		if !tt.check(client.Options(), enc) {
			t.Errorf("%s: options %+v, encryption %+v", tt.query, client.Options(), enc)
		}
	}
	for _, query := range []string{
		"region=us-east-1&nonsense=1",
		"region=us-east-1&use_path_style=maybe",
		"region=us-east-1&hostname_immutable=yes please",
		"region=us-east-1&ssetype=rot13",
		"region=us-east-1&request_checksum_calculation=always",
		"region=us-east-1&rate_limiter_capacity=many",
		"region=us-east-1&role=admin",
	} {
		q, _ := url.ParseQuery(query)
		if _, _, err := newClient(context.Background(), q); err == nil {
			t.Errorf("%s: no error", query)
		}
	}
}
