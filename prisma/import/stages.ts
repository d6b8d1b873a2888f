// The stages a set's import is timed by (import-sets.ts), which its sources time parts of themselves.

/** Where a set's import spent its time, in milliseconds, by stage (a stage that did not run is absent). */
export interface StageTimes {
  /** Reading the source (a folder: every file, hashed), and the digest check of an unchanged one. */
  read?: number;
  /** A folder's SVG cleanup (in worker threads for a large folder). */
  clean?: number;
  map?: number;
  /** Reading the set's rows to compare. */
  plan?: number;
  /** The set's transaction. */
  write?: number;
}
