using Dashboard.Runner.Clients.Lean;

namespace Dashboard.Runner.Tests.Clients.Lean;

/// <summary>The lean generator's HPACK decoder (RFC 7541) on hand-made header blocks: both tables, size updates, refusals.</summary>
public sealed class HpackDecoderTests
{
    [Fact]
    public void Decode_StaticIndexedStatus_ReturnsIt()
    {
        var decoder = new HpackDecoder();

        Assert.Equal((404, -1), decoder.Decode([0x8D]));
    }

    [Fact]
    public void Decode_LiteralWithIndexing_InsertsAndLaterIndexResolvesToIt()
    {
        var decoder = new HpackDecoder();
        byte[] literal = [0x40, 11, .. "grpc-status"u8, 1, (byte)'7']; // new name, incremental indexing

        Assert.Equal((-1, 7), decoder.Decode(literal));
        Assert.Equal(1, decoder.TableCount);
        Assert.Equal(11 + 1 + 32, decoder.TableSize);
        Assert.Equal((-1, 7), decoder.Decode([0xBE])); // index 62: the newest dynamic entry
    }

    [Fact]
    public void Decode_StatusWithIndexedNameAndMultiByteIndex_ReadsValueAndSkipsOthers()
    {
        var decoder = new HpackDecoder();
        byte[] block = [0x48, 3, .. "503"u8, 0x0F, 0x0D, 2, .. "42"u8]; // :status (name 8) indexed; content-length (28) without indexing

        Assert.Equal((503, -1), decoder.Decode(block));
        Assert.Equal(1, decoder.TableCount);
    }

    [Fact]
    public void Decode_SizeUpdateToZero_EvictsEverything()
    {
        var decoder = new HpackDecoder();
        decoder.Decode([0x40, 11, .. "grpc-status"u8, 1, (byte)'0']);

        decoder.Decode([0x20]);

        Assert.Equal(0, decoder.TableCount);
        Assert.Throws<InvalidDataException>(() => decoder.Decode([0xBE]));
    }

    [Fact]
    public void Decode_TableFull_EvictsTheOldestEntry()
    {
        var decoder = new HpackDecoder(100);
        decoder.Decode([0x40, 1, (byte)'a', 10, .. "0123456789"u8]); // 43 bytes
        decoder.Decode([0x40, 1, (byte)'b', 10, .. "0123456789"u8]); // 86 bytes

        decoder.Decode([0x40, 1, (byte)'c', 10, .. "0123456789"u8]); // 129 > 100: 'a' goes

        Assert.Equal(2, decoder.TableCount);
        Assert.Equal(86, decoder.TableSize);
    }

    [Fact]
    public void Decode_SizeUpdateOverTheAdvertisedSize_Throws()
    {
        var decoder = new HpackDecoder();

        Assert.Throws<InvalidDataException>(() => decoder.Decode([0x3F, 0xE2, 0x1F])); // 31 + 98 + (31 << 7) = 4097 > 4096
        Assert.Equal(0, decoder.TableCount);
    }

    [Fact]
    public void Decode_HuffmanString_IsRefused()
    {
        var decoder = new HpackDecoder();

        var error = Assert.Throws<InvalidDataException>(() => decoder.Decode([0x00, 0x81, 0x00, 0x01, (byte)'x']));

        Assert.Contains("Huffman", error.Message, StringComparison.Ordinal);
    }
}
