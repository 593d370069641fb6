/**
 * `riodp/net`: the software fabric over TCP (docs/api.md, docs/fabric-api.md). `startSwitch` runs
 * a switch; `startEndpoint` runs an end point and resolves with its application API
 * (`RiodpEndpoint`: discovery, streams and conduits, Part 9 flow state, TM, register reads);
 * `sendFile`/`receiveFile` move a file over a conduit with its SHA-256 checked; `ControlClient`
 * talks to a running `riodp endpoint` or `riodp switch` through its control socket.
 *
 * @module riodp/net
 */
export { startEndpoint } from './endpoint-start.ts';
export type { StartEndpointOptions } from './endpoint-process.ts';
export { startSwitch } from './switch-process.ts';
export type { StartSwitchOptions, SwitchAddress, SwitchPortState, RunningSwitch, RunningSwitchCounters, SwitchProcessCounter, SwitchProcessSnapshot } from './switch-process-types.ts';
export type { PeerClockCounters } from './peer-clock.ts';
export { SWITCH_PROCESS_COUNTERS } from './switch-process-types.ts';
export type { RefusalCounter, RefusalReason, PortRefusals } from './switch-refusals.ts';
export { REFUSAL_REASONS, REFUSAL_COUNTERS, PORT_REFUSALS } from './switch-refusals.ts';
export type { ConnectOptions } from './connect.ts';
export type { LinkOptions } from './link-options.ts';
export type { LinkTap } from './link-types.ts';
export type { CaptureSettings } from './link-capture.ts';
export type { LinkCounters, LinkCounterName, LinkState } from './link-types.ts';
export { LINK_COUNTERS } from './link-types.ts';
export type { Clock, HostScheduler, HostTimer } from './clock.ts';
export type { LogLimitOptions } from './log-limit.ts';
export type { TimerDriverOptions } from './timer-driver.ts';
export type { TlsConfig, PskConfig, CertConfig } from './security.ts';
export { ConfigError } from '../config/issues.ts';
export type { Issue } from '../config/issues.ts';
export type { FileResult } from './api-file-format.ts';
export { endpointConfig, loadEndpointConfig, EndpointConfigError } from './endpoint-config.ts';
export type { EndpointProcessConfig, EndpointConfigInput, ApiSettings, RetrySettings } from './endpoint-config.ts';
export { parseSwitchConfig, loadSwitchConfig, SwitchConfigError } from './switch-config.ts';
export type { SwitchProcessConfig, SwitchPortSetting, SwitchListenSetting, FairShareSetting } from './switch-config.ts';
export type * from './api-types.ts';
export { StreamError } from './api-stream.ts';
export { sendFile, receiveFile, fileSha256, isFileTransfer } from './api-file.ts';
export type { FileSent, FileReceived, SendFileOptions, ReceiveFileOptions } from './api-file.ts';
export { ControlClient, ControlError } from './control-client.ts';
export { makeLogger, LOG_LEVELS } from './log.ts';
export type { Logger, LogLevel, MakeLoggerOptions } from './log.ts';
export { API_COUNTERS } from './api-types.ts';
