package hub

import "github.com/hubform/hubform/hubclient"

// spamReasons returns why the submission req looks like spam, in words
// for the form's owners; none when it does not.
func (s *Server) spamReasons(form *Form, req hubclient.SubmitRequest) []string {
	return nil
}
