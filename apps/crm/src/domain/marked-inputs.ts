/** A batch input as the write endpoints take it: its properties, and the trace id a caller may give it. */
export interface TracedInput {
  properties: Record<string, unknown>;
  objectWriteTraceId?: string;
}

/** One refused input of a 207, in the hosted CRM's shape. */
export interface BatchInputError {
  status: 'error';
  category: 'VALIDATION_ERROR';
  message: string;
  context: { objectWriteTraceId?: string[] };
}

/**
 * Splits a batch into the inputs to apply and those marked invalid on demand: an input is marked
 * when any of its property values is the account's marker. No marker: every input is applied.
 */
export function splitMarkedInputs<I extends TracedInput>(
  inputs: readonly I[],
  marker: string | undefined,
): { valid: I[]; marked: { input: I; property: string }[] } {
  const valid: I[] = [];
  const marked: { input: I; property: string }[] = [];
  for (const input of inputs) {
    const property = marker === undefined ? undefined : Object.keys(input.properties ?? {}).find((name) => input.properties[name] === marker);
    if (property === undefined) valid.push(input);
    else marked.push({ input, property });
  }
  return { valid, marked };
}

/** The 207 error of a marked input: the message lists the property as the hosted CRM lists invalid values. */
export function markedInputError(input: TracedInput, property: string, marker: string): BatchInputError {
  const problem = { isValid: false, message: `"${marker}" is marked invalid for this account (its invalidMarker)`, error: 'INVALID_VALUE', name: property };
  return {
    status: 'error',
    category: 'VALIDATION_ERROR',
    message: `Property values were not valid: ${JSON.stringify([problem])}`,
    context: input.objectWriteTraceId === undefined ? {} : { objectWriteTraceId: [input.objectWriteTraceId] },
  };
}
