/**
 * IP addresses and CIDRs with Go `net` (Kubernetes `ParseIPSloppy` / `ParseCIDRSloppy`) rules,
 * shared by the controllers and the providers: the textual forms (`ip-text`), addresses as 16
 * bytes for comparing node IPs (`ip-address`), and CIDRs with addresses as integers (`cidr`).
 */
export {
  type Cidr,
  cidrContains,
  formatCidrAsGo,
  formatIpAddress,
  parseIpAddress,
  tryParseCidr,
} from './cidr.js';
export {
  isIpv4,
  parseIp,
} from './ip-address.js';
