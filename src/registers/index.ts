/** The register layer: one configuration space per processing element and its typed views. */
export * from './errors.ts';
export * from './fields.ts';
export * from './space.ts';
export * from './ef-chain.ts';
export * from './lock.ts';
export * from './standard.ts';
export * from './pe-features.ts';
export * from './operations.ts';
export * from './data-streaming.ts';
export * from './port-control.ts';
export * from './voq-block.ts';
export * from './session-block.ts';
export * from './component-tag.ts';
export * from './builder.ts';
