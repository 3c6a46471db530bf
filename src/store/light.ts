/**
 * The part of the store's face that needs no engine: refusals and the store's errors, and the
 * readings a command makes before it asks (a record's number, a due date, a store's place, names).
 * What is bundled apart from the engines imports it instead of the index: the agent's path, so
 * that `binder` never loads SQLite's or PostgreSQL's code, and the page, bundled for browsers. It
 * must never import an engine, a rule file or a package.
 */
export { Refused, type RefusalKind } from './refused.js';
export { StoreUnavailable, TransactionConflict, mustRethrow } from './store.js';
export { approvalMark } from './approval-mark.js';
export { readDue, type DueReading } from './due.js';
export { LIMITS } from './values.js';
export { readRecordNumber } from './record-number.js';
export { whoName } from './who-name.js';
export { slug } from './slug.js';
export { storeSpec, type StoreSpec } from './store-spec.js';
export { shownStoreUrl } from './shown-url.js';
export { PERSONS_OPERATIONS, adminWords, personsOperation, type PersonsOperation } from './whose.js';
export { sentence, step, commandLine, placeholder, isStep, isPlaceholder, stepsOf, written, withSteps, type Sentence, type Step, type StepValue, type Placeholder } from './sentence.js';
