import { z } from 'zod';
import { ApprovalScopeSchema, ConfirmationDecisionSchema, ToolConfirmationRequestSchema } from './confirmation.js';
import { ElicitationActionSchema, ElicitationContentSchema, ElicitationOutcomeSchema, ElicitationRequestSchema } from './elicitation.js';
import { SamplingAnswerSchema, SamplingOutcomeSchema, SamplingRequestSchema } from './sampling.js';

/**
 * The tool call a question belongs to: its conversation and the model's id of the call there. The id alone names no
 * call: models repeat ids across turns and conversations (many local servers send `call_0` each time), so a face that
 * matched on it would show one conversation's question on another's card (docs/rules/questions.md#the-shape).
 */
export const QuestionCallSchema = z.object({ conversationId: z.string(), callId: z.string() });
export type QuestionCall = z.infer<typeof QuestionCallSchema>;

/**
 * Everything the host asks the person, as one union on `kind`
 * (docs/rules/questions.md): a tool call to confirm, a server's question
 * (elicitation), a server's request to sample the user's model. One broker
 * holds them, one pair of API entries lists and answers them, one event
 * tells of them; each kind keeps its own request and answer. The next kinds
 * (a sign-in from a card, a view's link to open) join the union here.
 *
 * Each request carries its own `id`, `conversationId`, `createdAt` and
 * `expiresAt`; `call` names the tool call that caused the question, when
 * the host can tell, so a face shows it on that call's card.
 */
export const QuestionSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('toolConfirmation'), call: QuestionCallSchema.optional(), request: ToolConfirmationRequestSchema }),
  z.object({ kind: z.literal('elicitation'), call: QuestionCallSchema.optional(), request: ElicitationRequestSchema }),
  z.object({ kind: z.literal('sampling'), call: QuestionCallSchema.optional(), request: SamplingRequestSchema }),
]);
export type Question = z.infer<typeof QuestionSchema>;
export type QuestionKind = Question['kind'];
export type QuestionOf<K extends QuestionKind> = Extract<Question, { kind: K }>;

/** The person's answer, of the question's kind (another kind's answer is refused); a confirmation's scope is `once` unless given. */
export const QuestionAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('toolConfirmation'), approved: z.boolean(), scope: ApprovalScopeSchema.optional() }).strict(),
  z.object({ kind: z.literal('elicitation'), action: ElicitationActionSchema, content: ElicitationContentSchema.optional() }).strict(),
  z.object({ kind: z.literal('sampling'), answer: SamplingAnswerSchema }).strict(),
]);
export type QuestionAnswer = z.infer<typeof QuestionAnswerSchema>;
export type AnswerOf<K extends QuestionKind> = Extract<QuestionAnswer, { kind: K }>;

/** How a question ended, in its kind's words (a confirmation's decision, an elicitation's or a sampling request's outcome). */
export const QuestionOutcomeSchema = z.union([ConfirmationDecisionSchema, ElicitationOutcomeSchema, SamplingOutcomeSchema]);
export type QuestionOutcome = z.infer<typeof QuestionOutcomeSchema>;

/** What happened to a question: asked, moved on (a sampling request's next step), or ended with its outcome. */
export type QuestionChange = { change: 'asked' | 'updated'; question: Question } | { change: 'resolved'; question: Question; outcome: QuestionOutcome };
