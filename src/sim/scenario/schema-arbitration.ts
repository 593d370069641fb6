import { SIM_ARB_TIMES } from '../../node/endpoint/arbitration-config.ts';
import { arbitrationSettings as settings } from '../../node/endpoint/arbitration-schema.ts';
import { time } from './schema-parts.ts';

/**
 * endpoints.arbitration: Part 9 flow arbitration in every end point (src/node/endpoint/
 * arbitration.ts), the schema every host shares (src/node/endpoint/arbitration-schema.ts). The
 * output is an EndpointArbitrationConfig with every default filled in; times are ps
 * (schema-parts.ts `time`).
 */
export const arbitrationSettings = settings({ duration: time(), period: time(1) }, SIM_ARB_TIMES);
