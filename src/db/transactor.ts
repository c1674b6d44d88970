// Transactions as services see them, on either engine (the Db port and the PostgreSQL port both offer them).
/** What a service may do with the database: group repository calls and act after they commit. */
export interface TxOptions {
  /**
   * PostgreSQL only (SQLite has one writer, so every transaction is serial): "read committed" for a hot
   * transaction whose every race is closed by a constraint or one statement, not by SERIALIZABLE's
   * read tracking. Ignored when nested (a savepoint keeps its transaction's level). Default serializable.
   */
  isolation?: "serializable" | "read committed";
}

export interface Transactor {
  /**
   * Runs fn in one transaction (a savepoint when nested): everything in it commits or nothing does.
   * The transaction follows fn's awaits (AsyncLocalStorage), so repository calls inside it join it.
   * Do only database work inside: the writer is held until fn settles.
   */
  tx<T>(fn: () => Promise<T> | T, opts?: TxOptions): Promise<T>;
  /** Runs fn after the current transaction commits (never if it rolls back); soon, outside one. */
  afterCommit(fn: () => void): void;
}
