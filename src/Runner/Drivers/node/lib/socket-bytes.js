'use strict';
// Wire bytes per call, counted on the client's own socket: each closed-loop client has exactly one connection
// and one request in flight, so the socket's bytesWritten/bytesRead deltas around a call are that call's
// request and response as they crossed the socket (headers and framing included). A call that had to open a
// new connection (first call, or after the server closed the old one) adds what the new socket carried.

class SocketBytes {
  constructor() {
    /** The client's current socket, set by the connector when it opens one. */
    this.socket = null;
    this._start = null;
    this._written = 0;
    this._read = 0;
  }

  /** Called by the connector for every socket it opens for this client. */
  attach(socket) {
    this.socket = socket;
    // A socket that never connected carried nothing, though its bytesWritten counts what was queued on it.
    if (socket.connecting) socket.once('connect', () => { socket.dashboardConnected = true; });
    else socket.dashboardConnected = true;
  }

  /** Before a call. */
  begin() {
    const s = this.socket;
    this._start = s;
    this._written = s ? s.bytesWritten : 0;
    this._read = s ? s.bytesRead : 0;
  }

  /** After a call: [requestBytes, responseBytes]. */
  end() {
    const start = this._start;
    const now = this.socket;
    let written = 0;
    let read = 0;
    if (start && start.dashboardConnected) {
      written += start.bytesWritten - this._written;
      read += start.bytesRead - this._read;
    }
    if (now && now !== start && now.dashboardConnected) {
      written += now.bytesWritten;
      read += now.bytesRead;
    }
    this._start = null;
    // -1 (unknown) rather than a broken record should a runtime ever not report a counter.
    return [Number.isFinite(written) && written >= 0 ? written : -1, Number.isFinite(read) && read >= 0 ? read : -1];
  }

  destroy() {
    if (this.socket) this.socket.destroy();
    this.socket = null;
  }
}

module.exports = { SocketBytes };
