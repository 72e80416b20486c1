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

// Save a game's state, based on a version; never throws. Answers {status, data}: status 0 when the
// server cannot be reached. A save that fits the browser's keepalive allowance (64 KiB) outlives
// the page (a reload or a close); a larger one waits in localStorage instead (see app.js).
export async function putGame(id, body) {
  const text = JSON.stringify(body);
  try {
    const response = await fetch(`/api/games/${id}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: text,
      keepalive: text.length < 60000,
    });
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      data = { error: `the server answered ${response.status} without JSON` };
    }
    return { status: response.status, data };
  } catch (error) {
    return { status: 0, data: { error: "the server cannot be reached" } };
  }
}
