// Package captcha verifies Cloudflare Turnstile and Google reCAPTCHA v3
// tokens with the providers' siteverify endpoints.
//
// Verification fails closed: only an answer in which the provider accepts
// the token lets a submission through. A [RefusedError] means the token
// itself is bad, which is the submitter's problem; any other error means the
// token could not be checked, which is the hub's.
package captcha
