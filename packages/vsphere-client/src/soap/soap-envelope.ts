/** SOAP 1.1 envelopes for VIM requests. */

const ENVELOPE_OPEN =
  '<?xml version="1.0" encoding="UTF-8"?>' +
  '<soapenv:Envelope xmlns:soapenv="http://schemas.xmlsoap.org/soap/envelope/"' +
  ' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">' +
  '<soapenv:Body>';
const ENVELOPE_CLOSE = '</soapenv:Body></soapenv:Envelope>';

/** The request envelope for `method` with its parameters (already XML, in schema order). */
export function soapRequestEnvelope(method: string, parametersXml: string): string {
  return `${ENVELOPE_OPEN}<${method} xmlns="urn:vim25">${parametersXml}</${method}>${ENVELOPE_CLOSE}`;
}
