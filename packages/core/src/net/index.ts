/** IP address and CIDR text: parsing and formatting shared by the controllers and the providers. */
export * from './ip-text.js';
