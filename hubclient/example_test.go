package hubclient_test

import (
	"context"
	"fmt"
	"log"

	"github.com/hubform/hubform/hubclient"
	"github.com/hubform/hubform/hubclient/fakehub"
)

func ExampleNewSubmit() {
	hub := fakehub.NewServer() // any hub: hubclient.DefaultHubURL, or your own
	defer hub.Close()

	submit := hubclient.NewSubmit(hubclient.SubmitOptions{
		HubURL:   hub.URL,
		SiteID:   "acme",
		FormSlug: "contact",
	})
	res, err := submit.OnSubmit(context.Background(), map[string]any{
		"name":  "Jane",
		"files": []hubclient.File{memFile("hello.txt", "text/plain", "Hello!")},
		"_hp":   "",
	})
	if err != nil {
		log.Fatal(err) // begins "upload-url failed: ", "upload PUT to R2 failed: " or "submit failed: "
	}
	sent := hub.Submissions()[0].Request
	fmt.Println(submit.Type, res.OK, res.SubmissionID)
	fmt.Println(sent.Payload, sent.Attachments[0].Filename, sent.Attachments[0].Size)
	// Output:
	// custom true sub-1
	// map[name:Jane] hello.txt 6
}

func ExampleClient_Schema() {
	hub := fakehub.NewServer()
	defer hub.Close()
	hub.SetForm("acme", "contact", &hubclient.Schema{
		Title:  "Contact us",
		Fields: []hubclient.Field{{Name: "email", Type: hubclient.FieldEmail, Required: true}},
		Steps:  []hubclient.Step{{ID: "one", Fields: []string{"email"}}},
	})

	c := &hubclient.Client{HubURL: hub.URL}
	schema, err := c.Schema(context.Background(), "acme", "contact")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(schema.Title, schema.Configured(), schema.Field("email").Type)

	_, err = c.Schema(context.Background(), "acme", "missing")
	fmt.Println(err != nil)
	// Output:
	// Contact us true email
	// true
}
