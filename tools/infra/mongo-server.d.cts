// Types of mongo-server.cjs for the TypeScript tests that start a server of their own.

export interface MongoServerOptions {
  port?: number;
  host?: string;
  /** Keep the data in this H2 (MVStore) file instead of in memory. */
  h2File?: string;
  logFile?: string;
  /** JVM options, placed before `-jar`. */
  javaOptions?: string[];
}

export interface MongoServer {
  url: string;
  port: number;
  /** Process id of the JVM. */
  pid: number;
  logFile: string;
  /** SIGTERM (SIGKILL after 10 s); resolves once the process has exited. */
  stop(): Promise<void>;
}

export declare const jarPath: string;
export declare function ensureJar(): string;
export declare function startMongoServer(options?: MongoServerOptions): Promise<MongoServer>;
