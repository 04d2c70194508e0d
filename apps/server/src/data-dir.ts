/** Where the embedded database and the files live when `LFK_DATA_DIR` is unset (or empty, as every variable: env-values.ts). */
export const DEFAULT_DATA_DIR = './.lfk/data';
