/** The sans-IO engine contract shared by the protocol engines. */
export * from './contract.ts';
export * from './timers.ts';
