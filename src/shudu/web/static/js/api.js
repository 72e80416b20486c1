// The JSON API: one function, errors carry the server's message.

export class ApiError extends Error {
  constructor(message, status, details) {
    super(message);
    this.status = status;
    this.details = details;
  }
}

export async function api(path, body = undefined, method = undefined) {
  const options = { method: method || (body === undefined ? "GET" : "POST"), headers: {} };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError("the server cannot be reached; is `shudu serve` running?", 0, {});
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = { error: `the server answered ${response.status} without JSON` };
  }
  if (!response.ok) throw new ApiError(data.error || `error ${response.status}`, response.status, data);
  return data;
}

// Save without waiting, and even while the page is closing.
export function saveSoon(path, body) {
  return fetch(path, {
    method: "PUT",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
    keepalive: true,
  });
}
