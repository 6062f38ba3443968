package hub

import "github.com/hubform/hubform/hubclient"

// CalculationsOf returns the values of schema's calculations for a
// submission, by name, nil for a form without: payload as ValidatePayload
// left it (the values of hidden fields dropped, and whatever the client
// sent under a calculation's name with them) and the attachments, each
// file field seen as the list of its files. The hub works them out and
// stores them; a client's are never read.
func CalculationsOf(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) map[string]any {
	if len(schema.Calculations) == 0 {
		return nil
	}
	// A schema whose calculations do not parse was refused when stored;
	// one that slipped through has nil for those that do not.
	logic, _ := hubclient.Compile(schema)
	return logic.Calculate(hubclient.WithFiles(payload, attachments))
}

// QuizOf returns what the hub tells the visitor of a quiz after a
// submission: the score, from the stored calculations, and, when the quiz
// shows its answers, whether each question was answered right. It returns
// nothing for a form that is no quiz.
func QuizOf(schema *hubclient.Schema, payload map[string]any, calculations map[string]any) (score *float64, answers map[string]bool) {
	if schema.Quiz == nil {
		return nil, nil
	}
	if v, ok := calculations[hubclient.ScoreName].(float64); ok {
		score = &v
	}
	if schema.Quiz.ShowAnswers {
		logic, _ := hubclient.Compile(schema)
		answers = logic.QuizAnswers(payload)
	}
	return score, answers
}
