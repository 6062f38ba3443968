package hub

import "time"

// Image is a picture an owner uploaded to the hub's file storage for a
// theme, a form's logo or cover or a brand's, which the hub serves to
// anyone at its address (package images).
type Image struct {
	// Key is the object's key in the file storage.
	Key       string
	Workspace string
	// ContentType is the type the hub found in its bytes.
	ContentType string
	Size        int64
	CreatedAt   time.Time
}
