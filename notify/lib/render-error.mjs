/** A render that failed or timed out: the message says so in one line, in the picture's place. */
export class RenderError extends Error {}
