/**
 * How a person or an agent is named wherever the binder says who did something: the name, and
 * a signed-in person's e-mail as their provider gave it (`Ann Lee <ann@acme.test>`). Pure and
 * import-free, so the screen, the page and the keeper's words all share it.
 */
export const whoName = (who: { name: string; email?: string }): string => (who.email ? `${who.name} <${who.email}>` : who.name);
