// The published API version (SPEC 9): a date. It is the OpenAPI document's info.version and
// the only value the `service-version` request header accepts.
export const apiVersion = '2026-11-22';
