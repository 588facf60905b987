// the API's date form is one fact of the contract, which the web app reads dates back with
export { formatDateTime } from '@nimbus/contract';
