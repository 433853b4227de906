// What the conversation beside the Canvas hears when the user submits a form
// (docs/using/canvas.md#in-a-conversation): which action on which instance,
// and the instance's state as the submit left it, so the agent can answer
// without reading it first. Bounded here; the host bounds it again.

/** A state larger than this (as JSON) is sent as its keys only, with a note: the agent can read the rest with get_schema. */
const MAX_STATE_CHARS = 8_000;

function boundedState(state) {
  const text = JSON.stringify(state ?? {});
  if (text.length <= MAX_STATE_CHARS) return state ?? {};
  const keys = (part) => (part && typeof part === 'object' ? Object.keys(part).slice(0, 200) : []);
  return { truncated: `the state is ${text.length} characters; read it with get_schema`, params: keys(state?.params), runtime: keys(state?.runtime) };
}

/** `{ text, state }` for `host.conversation.post`, from the action and the patch's answer (`{ instance_id, revision, schema }`). */
export function submittedMessage(instanceId, action, answer) {
  const label = typeof action.label === 'string' && action.label ? action.label : action.id;
  return {
    text: `Submitted "${label}" (action ${action.id}) on the Canvas instance "${instanceId}", revision ${answer.revision}.`,
    state: { instance_id: instanceId, revision: answer.revision, action: action.id, state: boundedState(answer.schema?.state) },
  };
}
