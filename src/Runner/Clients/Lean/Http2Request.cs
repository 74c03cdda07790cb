using System.Buffers.Binary;
using System.Text;

namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// One cell's HTTP/2 request, encoded once (docs/driver-protocol.md, "The lean generator"): a HEADERS frame whose block
/// uses the static table's indexed fields and literals without indexing only (so it needs no dynamic table on our side
/// and is the same on every stream), then the body in DATA frames of at most 16,384 bytes (the smallest
/// SETTINGS_MAX_FRAME_SIZE a peer may have), the last with END_STREAM. Each client keeps its own copy
/// (<see cref="Clone"/>) and writes the stream id of each call into it (<see cref="SetStream"/>).
/// </summary>
public sealed class Http2Request
{
    /// <summary>The largest frame payload written: the default (and minimum) SETTINGS_MAX_FRAME_SIZE, bytes.</summary>
    public const int MaxFramePayload = 16_384;

    /// <summary>The 9-byte frame header's size (RFC 9113 §4.1).</summary>
    public const int FrameHeader = 9;

    private readonly byte[] _bytes;
    private readonly int[] _frames;

    private Http2Request(byte[] bytes, int[] frames)
    {
        _bytes = bytes;
        _frames = frames;
    }

    /// <summary>The frames, back to back, ready to write (stream id as last set).</summary>
    public ReadOnlyMemory<byte> Bytes => _bytes;

    /// <summary>Where each frame starts in <see cref="Bytes"/>: the HEADERS frame at 0, then each DATA frame.</summary>
    public IReadOnlyList<int> Frames => _frames;

    /// <summary>The body's size (DATA payloads), bytes.</summary>
    public int BodyLength { get; private init; }

    /// <summary>
    /// Encodes a POST of <paramref name="body"/> to <paramref name="target"/> with <paramref name="headers"/> (lower-case
    /// names, in this order after the pseudo-headers <c>:method</c>, <c>:scheme</c>, <c>:authority</c>, <c>:path</c>).
    /// </summary>
    /// <param name="target">The absolute address (scheme, authority and path are taken from it).</param>
    /// <param name="headers">Regular header fields, names lower case (RFC 9113 §8.2.1).</param>
    /// <param name="body">The request body (may be empty: HEADERS then carries END_STREAM).</param>
    /// <exception cref="ArgumentException">The header block does not fit one frame of 16,384 bytes.</exception>
    public static Http2Request Encode(Uri target, IEnumerable<(string Name, string Value)> headers, ReadOnlySpan<byte> body)
    {
        ArgumentNullException.ThrowIfNull(target);
        ArgumentNullException.ThrowIfNull(headers);
        var block = new List<byte> { 0x83, target.Scheme == Uri.UriSchemeHttps ? (byte)0x87 : (byte)0x86 }; // :method POST, :scheme
        Literal(block, 1, target.IsDefaultPort ? target.IdnHost : $"{target.IdnHost}:{target.Port}"); // :authority
        Literal(block, 4, target.PathAndQuery); // :path
        foreach (var (name, value) in headers)
        {
            var index = name switch
            {
                "content-type" => 31,
                "content-length" => 28,
                "authorization" => 23,
                "user-agent" => 58,
                _ => 0,
            };
            Literal(block, index, value, index == 0 ? name : null);
        }

        if (block.Count > MaxFramePayload)
        {
            throw new ArgumentException($"a header block of {block.Count} bytes does not fit one HTTP/2 frame", nameof(headers));
        }

        var dataFrames = (body.Length + MaxFramePayload - 1) / MaxFramePayload;
        var bytes = new byte[FrameHeader + block.Count + (dataFrames * FrameHeader) + body.Length];
        var frames = new int[1 + dataFrames];
        WriteHeader(bytes, 0, block.Count, 0x1, (byte)(0x4 | (body.IsEmpty ? 0x1 : 0))); // HEADERS, END_HEADERS (+ END_STREAM)
        block.CopyTo(bytes, FrameHeader);
        var at = FrameHeader + block.Count;
        for (var i = 0; i < dataFrames; i++)
        {
            var chunk = body.Slice(i * MaxFramePayload, Math.Min(MaxFramePayload, body.Length - (i * MaxFramePayload)));
            frames[1 + i] = at;
            WriteHeader(bytes, at, chunk.Length, 0x0, i == dataFrames - 1 ? (byte)0x1 : (byte)0); // DATA (+ END_STREAM)
            chunk.CopyTo(bytes.AsSpan(at + FrameHeader));
            at += FrameHeader + chunk.Length;
        }

        return new Http2Request(bytes, frames) { BodyLength = body.Length };
    }

    /// <summary>A copy of its own, for one client (stream ids are written into it).</summary>
    public Http2Request Clone() => new((byte[])_bytes.Clone(), _frames) { BodyLength = BodyLength };

    /// <summary>Writes <paramref name="stream"/> into every frame's header.</summary>
    public void SetStream(int stream)
    {
        foreach (var at in _frames)
        {
            BinaryPrimitives.WriteInt32BigEndian(_bytes.AsSpan(at + 5), stream);
        }
    }

    /// <summary>The payload length of frame <paramref name="frame"/> (an index into <see cref="Frames"/>).</summary>
    public int PayloadLength(int frame) => (_bytes[_frames[frame]] << 16) | (_bytes[_frames[frame] + 1] << 8) | _bytes[_frames[frame] + 2];

    /// <summary>Writes a frame header (stream 0; <see cref="SetStream"/> sets it) at <paramref name="at"/>.</summary>
    private static void WriteHeader(byte[] bytes, int at, int length, byte type, byte flags)
    {
        bytes[at] = (byte)(length >> 16);
        bytes[at + 1] = (byte)(length >> 8);
        bytes[at + 2] = (byte)length;
        bytes[at + 3] = type;
        bytes[at + 4] = flags;
    }

    /// <summary>A literal header field without indexing (RFC 7541 §6.2.2): the static table's name <paramref name="index"/>, or a new name when 0.</summary>
    private static void Literal(List<byte> block, int index, string value, string? name = null)
    {
        Integer(block, 0x00, 4, index);
        if (index == 0)
        {
            String(block, name!);
        }

        String(block, value);
    }

    private static void String(List<byte> block, string text)
    {
        var bytes = Encoding.ASCII.GetBytes(text);
        Integer(block, 0x00, 7, bytes.Length); // H = 0: raw
        block.AddRange(bytes);
    }

    /// <summary>An HPACK integer with an N-bit prefix (RFC 7541 §5.1); <paramref name="high"/> holds the bits above the prefix.</summary>
    private static void Integer(List<byte> block, byte high, int prefixBits, int value)
    {
        var max = (1 << prefixBits) - 1;
        if (value < max)
        {
            block.Add((byte)(high | value));
            return;
        }

        block.Add((byte)(high | max));
        value -= max;
        while (value >= 0x80)
        {
            block.Add((byte)((value & 0x7F) | 0x80));
            value >>= 7;
        }

        block.Add((byte)value);
    }
}
