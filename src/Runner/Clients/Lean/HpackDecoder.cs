namespace Dashboard.Runner.Clients.Lean;

/// <summary>
/// The HPACK decoder (RFC 7541) of one HTTP/2 connection of the <c>lean</c> generator, kept to what the generator reads
/// from a response's header blocks: <c>:status</c> and <c>grpc-status</c>. It keeps the connection's dynamic table (every
/// literal with incremental indexing is inserted, entries are evicted by the RFC's size rule, size updates are applied),
/// so indexed fields that Kestrel sends from its dynamic table resolve correctly.
/// </summary>
/// <remarks>
/// Huffman-coded strings are not decoded: Kestrel's encoder writes its strings raw, and a Huffman string ends the block
/// with <see cref="InvalidDataException"/> (the connection's table state is then unknown, so the caller closes it).
/// </remarks>
/// <param name="maxTableSize">The SETTINGS_HEADER_TABLE_SIZE this side advertised (bytes, RFC 7541 §4.2); 4096 by default.</param>
public sealed class HpackDecoder(int maxTableSize = 4096)
{
    private readonly int _maxTableSize = maxTableSize;

    /// <summary>RFC 7541 Appendix A, index 1..61 (index 0 unused).</summary>
    private static readonly (string Name, string Value)[] StaticTable =
    [
        ("", ""), (":authority", ""), (":method", "GET"), (":method", "POST"), (":path", "/"), (":path", "/index.html"),
        (":scheme", "http"), (":scheme", "https"), (":status", "200"), (":status", "204"), (":status", "206"), (":status", "304"),
        (":status", "400"), (":status", "404"), (":status", "500"), ("accept-charset", ""), ("accept-encoding", "gzip, deflate"),
        ("accept-language", ""), ("accept-ranges", ""), ("accept", ""), ("access-control-allow-origin", ""), ("age", ""),
        ("allow", ""), ("authorization", ""), ("cache-control", ""), ("content-disposition", ""), ("content-encoding", ""),
        ("content-language", ""), ("content-length", ""), ("content-location", ""), ("content-range", ""), ("content-type", ""),
        ("cookie", ""), ("date", ""), ("etag", ""), ("expect", ""), ("expires", ""), ("from", ""), ("host", ""),
        ("if-match", ""), ("if-modified-since", ""), ("if-none-match", ""), ("if-range", ""), ("if-unmodified-since", ""),
        ("last-modified", ""), ("link", ""), ("location", ""), ("max-forwards", ""), ("proxy-authenticate", ""),
        ("proxy-authorization", ""), ("range", ""), ("referer", ""), ("refresh", ""), ("retry-after", ""), ("server", ""),
        ("set-cookie", ""), ("strict-transport-security", ""), ("transfer-encoding", ""), ("user-agent", ""), ("vary", ""),
        ("via", ""), ("www-authenticate", ""),
    ];

    private static readonly byte[][] StaticNames = [.. StaticTable.Select(e => System.Text.Encoding.ASCII.GetBytes(e.Name))];
    private static readonly byte[][] StaticValues = [.. StaticTable.Select(e => System.Text.Encoding.ASCII.GetBytes(e.Value))];

    /// <summary>The dynamic table, newest first (index 62 is <c>_entries[0]</c>).</summary>
    private readonly List<(byte[] Name, byte[] Value)> _entries = [];
    private int _capacity = maxTableSize;
    private int _size;

    /// <summary>The dynamic table's current size (RFC 7541 §4.1: name + value + 32 per entry), bytes.</summary>
    public int TableSize => _size;

    /// <summary>The number of entries in the dynamic table.</summary>
    public int TableCount => _entries.Count;

    /// <summary>
    /// Decodes one complete header block (HEADERS plus any CONTINUATION payloads, joined); returns the <c>:status</c> and
    /// <c>grpc-status</c> values it carries (−1 where absent), updating the dynamic table as the block says.
    /// </summary>
    /// <exception cref="InvalidDataException">The block is not valid HPACK, uses a Huffman string, or names an index that does not exist.</exception>
    public (int Status, int GrpcStatus) Decode(ReadOnlySpan<byte> block)
    {
        var status = -1;
        var grpcStatus = -1;
        var at = 0;
        while (at < block.Length)
        {
            var first = block[at];
            ReadOnlySpan<byte> name;
            ReadOnlySpan<byte> value;
            if ((first & 0x80) != 0)
            {
                var index = ReadInteger(block, ref at, 7);
                (name, value) = Entry(index);
            }
            else if ((first & 0xE0) == 0x20)
            {
                var size = ReadInteger(block, ref at, 5);
                if (size > _maxTableSize)
                {
                    throw new InvalidDataException($"an HPACK table size update to {size} over the advertised {_maxTableSize}");
                }

                _capacity = size;
                Evict(0);
                continue;
            }
            else
            {
                var indexing = (first & 0xC0) == 0x40;
                var index = ReadInteger(block, ref at, indexing ? 6 : 4);
                name = index == 0 ? ReadString(block, ref at) : Entry(index).Name;
                value = ReadString(block, ref at);
                if (indexing)
                {
                    Insert(name, value);
                }
            }

            if (name.SequenceEqual(":status"u8))
            {
                status = ParseNumber(value);
            }
            else if (name.SequenceEqual("grpc-status"u8))
            {
                grpcStatus = ParseNumber(value);
            }
        }

        return (status, grpcStatus);
    }

    private (byte[] Name, byte[] Value) Entry(int index)
    {
        if (index >= 1 && index < StaticTable.Length)
        {
            return (StaticNames[index], StaticValues[index]);
        }

        var dynamic = index - StaticTable.Length;
        return dynamic >= 0 && dynamic < _entries.Count ? _entries[dynamic] : throw new InvalidDataException($"an HPACK index {index} that is in neither table");
    }

    private void Insert(ReadOnlySpan<byte> name, ReadOnlySpan<byte> value)
    {
        var size = name.Length + value.Length + 32;
        Evict(size);
        if (size <= _capacity)
        {
            _entries.Insert(0, (name.ToArray(), value.ToArray()));
            _size += size;
        }
    }

    /// <summary>Evicts the oldest entries until <paramref name="room"/> more bytes fit (all of them if it cannot, RFC 7541 §4.4).</summary>
    private void Evict(int room)
    {
        while (_entries.Count > 0 && _size + room > _capacity)
        {
            var (name, value) = _entries[^1];
            _entries.RemoveAt(_entries.Count - 1);
            _size -= name.Length + value.Length + 32;
        }
    }

    /// <summary>An HPACK integer with an N-bit prefix (RFC 7541 §5.1), starting at <paramref name="at"/>.</summary>
    private static int ReadInteger(ReadOnlySpan<byte> block, ref int at, int prefixBits)
    {
        var mask = (1 << prefixBits) - 1;
        var value = block[at++] & mask;
        if (value < mask)
        {
            return value;
        }

        var shift = 0;
        while (true)
        {
            if (at >= block.Length || shift > 21)
            {
                throw new InvalidDataException("an HPACK integer that is cut short or too large");
            }

            var next = block[at++];
            value += (next & 0x7F) << shift;
            shift += 7;
            if ((next & 0x80) == 0)
            {
                return value;
            }
        }
    }

    private static ReadOnlySpan<byte> ReadString(ReadOnlySpan<byte> block, scoped ref int at)
    {
        if (at >= block.Length)
        {
            throw new InvalidDataException("an HPACK string that is cut short");
        }

        if ((block[at] & 0x80) != 0)
        {
            throw new InvalidDataException("a Huffman-coded HPACK string (the lean generator reads raw strings only, as Kestrel sends them)");
        }

        var length = ReadInteger(block, ref at, 7);
        if (length > block.Length - at)
        {
            throw new InvalidDataException("an HPACK string longer than its block");
        }

        var text = block.Slice(at, length);
        at += length;
        return text;
    }

    private static int ParseNumber(ReadOnlySpan<byte> value) =>
        System.Buffers.Text.Utf8Parser.TryParse(value, out int number, out var consumed) && consumed == value.Length ? number : -1;
}
