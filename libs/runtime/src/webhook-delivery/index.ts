export { checkTarget, pinnedAgents, type ResolveHost, type TargetCheck } from './target-policy';
export { postJson, type PostAttempt, type PostJsonOptions } from './post-json';
export { refusedAnswer } from './refused-answer';
