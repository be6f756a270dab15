import { sandboxDriver } from '../drivers/sandbox-driver.js';
import { describeConformance } from './conformance-suite.js';

await describeConformance(sandboxDriver);
