/** Binder's version, as `--version` and the heartbeat say it (checked against package.json by a test). */
export const VERSION = '0.2.0';
