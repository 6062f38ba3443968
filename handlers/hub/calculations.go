package hub

import "github.com/hubform/hubform/hubclient"

// Worked is what the hub works out of a submission's values beyond their
// checks: the calculations, and for a quiz the score and answers.
type Worked struct {
	// Calculations are the values of the form's calculations by name, nil
	// for a form without.
	Calculations map[string]any
	// Score and Answers are what the answer to a quiz carries
	// (hubclient.SubmitResponse), nil for a form that is no quiz.
	Score   *float64
	Answers map[string]bool
}

// Work returns what the hub works out of a submission to schema: payload
// as ValidatePayload left it (the values of hidden fields dropped, and
// whatever the client sent under a calculation's name with them) and the
// attachments, each file field seen as the list of its files. The hub
// stores the calculations; a client's are never read. The schema's logic
// is compiled once, and only for a form with calculations or a quiz.
func Work(schema *hubclient.Schema, payload map[string]any, attachments []hubclient.Attachment) Worked {
	if len(schema.Calculations) == 0 && schema.Quiz == nil {
		return Worked{}
	}
	// A schema whose calculations do not parse was refused when stored;
	// one that slipped through has nil for those that do not.
	logic, _ := hubclient.Compile(schema)
	values := hubclient.WithFiles(payload, attachments)
	w := Worked{Calculations: logic.Calculate(values)}
	w.Score, w.Answers = quiz(logic, schema, values, w.Calculations)
	return w
}

// QuizOf returns what the hub tells the visitor of a quiz after a
// submission, from its stored payload and calculations: the score and,
// when the quiz shows its answers, whether each question was answered
// right. It returns nothing for a form that is no quiz.
func QuizOf(schema *hubclient.Schema, payload map[string]any, calculations map[string]any) (score *float64, answers map[string]bool) {
	if schema.Quiz == nil {
		return nil, nil
	}
	logic, _ := hubclient.Compile(schema)
	return quiz(logic, schema, payload, calculations)
}

func quiz(logic *hubclient.Logic, schema *hubclient.Schema, values, calculations map[string]any) (score *float64, answers map[string]bool) {
	if schema.Quiz == nil {
		return nil, nil
	}
	if v, ok := calculations[hubclient.ScoreName].(float64); ok {
		score = &v
	}
	if schema.Quiz.ShowAnswers {
		answers = logic.QuizAnswers(values)
	}
	return score, answers
}
