extension LuaDissectorGenerator {
    /// The fixed part before the generated tables: protocols, envelope fields, the varint
    /// reader and the payload walker. `RELAY_PORT` is replaced by the default port,
    /// `CONTROL_NAMES` by the control ids of Spec/Control.gwspec (``ControlSpec``).
    static let runtime = #"""

        local gw = Proto("groupwire", "GroupWire")
        local capture = Proto("groupwire_capture", "GroupWire capture record")
        local relay = Proto("groupwire_relay", "GroupWire relay")

        relay.prefs.port = Pref.uint("Relay port", RELAY_PORT, "The TCP port of the GroupWire relay (its WebSocket payloads are dissected)")

        local KINDS = { [0] = "data", [1] = "control", [2] = "fragment" }
        local CONTROLS = CONTROL_NAMES
        local DIRECTIONS = { [0] = "received", [1] = "sent" }
        local RELAY_TYPES = { [1] = "send to all", [2] = "deliver", [3] = "send to some", [16] = "welcome", [17] = "joined", [18] = "left", [32] = "error" }
        local LEAVE_REASONS = { [0] = "closed", [1] = "lost", [2] = "tooSlow", [3] = "violation", [4] = "replaced", [5] = "shutdown" }
        local ERROR_CODES = { [1] = "malformed", [2] = "frameTooLarge", [3] = "rateLimited", [4] = "tooSlow", [5] = "replaced", [6] = "shuttingDown" }

        local F = {
            magic = ProtoField.uint8("groupwire.magic", "Magic", base.HEX),
            version = ProtoField.uint8("groupwire.version", "Version"),
            length = ProtoField.uint32("groupwire.length", "Length"),
            kind = ProtoField.uint8("groupwire.kind", "Kind", base.DEC, KINDS, 0x0F),
            compressed = ProtoField.bool("groupwire.flags.compressed", "Compressed", 8, nil, 0x10),
            in_session = ProtoField.bool("groupwire.flags.session", "Session header", 8, nil, 0x20),
            delivered = ProtoField.bool("groupwire.flags.delivery", "Delivery header", 8, nil, 0x40),
            stream = ProtoField.uint32("groupwire.delivery.stream", "Delivery stream"),
            reliable = ProtoField.bool("groupwire.delivery.reliable", "Reliable"),
            sequence = ProtoField.uint64("groupwire.delivery.sequence", "Sequence"),
            type_id = ProtoField.uint32("groupwire.type_id", "Type id"),
            type_name = ProtoField.string("groupwire.type", "Type"),
            control = ProtoField.string("groupwire.control", "Control"),
            message_id = ProtoField.uint64("groupwire.fragment.message_id", "Message id"),
            index = ProtoField.uint32("groupwire.fragment.index", "Fragment index"),
            count = ProtoField.uint32("groupwire.fragment.count", "Fragment count"),
            total_length = ProtoField.uint64("groupwire.fragment.total_length", "Total length"),
            offset = ProtoField.uint64("groupwire.fragment.offset", "Offset"),
            session = ProtoField.uint32("groupwire.session", "Session"),
            codec = ProtoField.uint8("groupwire.compression.codec", "Codec", base.DEC, { [1] = "zstd" }),
            dictionary_id = ProtoField.uint32("groupwire.compression.dictionary_id", "Dictionary id"),
            content_size = ProtoField.uint64("groupwire.compression.content_size", "Content size"),
            body = ProtoField.bytes("groupwire.body", "Body"),
            crc32c = ProtoField.uint32("groupwire.crc32c", "CRC32C", base.HEX),
            problem = ProtoField.string("groupwire.problem", "Problem"),
            unknown = ProtoField.bytes("groupwire.unknown_field", "Unknown field"),
        }
        local C = {
            version = ProtoField.uint8("groupwire_capture.version", "Pseudo-header version"),
            direction = ProtoField.uint8("groupwire_capture.direction", "Direction", base.DEC, DIRECTIONS),
            header_length = ProtoField.uint16("groupwire_capture.header_length", "Header length"),
            session = ProtoField.uint32("groupwire_capture.session", "Session"),
            local_id = ProtoField.guid("groupwire_capture.local", "Local participant"),
            peer = ProtoField.guid("groupwire_capture.peer", "Peer"),
            room = ProtoField.string("groupwire_capture.room", "Room", base.UNICODE),
        }
        local R = {
            type = ProtoField.uint8("groupwire_relay.type", "Relay message", base.HEX, RELAY_TYPES),
            count = ProtoField.uint32("groupwire_relay.count", "Count"),
            recipient = ProtoField.guid("groupwire_relay.recipient", "Recipient"),
            source = ProtoField.guid("groupwire_relay.source", "Source"),
            id = ProtoField.guid("groupwire_relay.id", "Participant"),
            identity = ProtoField.string("groupwire_relay.identity", "Identity", base.UNICODE),
            room = ProtoField.string("groupwire_relay.room", "Room", base.UNICODE),
            max_frame = ProtoField.uint32("groupwire_relay.max_frame", "Max frame size"),
            reason = ProtoField.uint8("groupwire_relay.reason", "Leave reason", base.DEC, LEAVE_REASONS),
            code = ProtoField.uint32("groupwire_relay.code", "Error code", base.DEC, ERROR_CODES),
            text = ProtoField.string("groupwire_relay.message", "Error message", base.UNICODE),
        }

        local PF = {}
        local TYPES = {}
        local ENUMS = {}
        local MESSAGES = {}

        -- A varint at `off` (below `stop`): its value (UInt64) and the offset after it, or nil.
        local function varint(tvb, off, stop)
            local value = UInt64(0)
            local shift = 0
            local pos = off
            while pos < stop and shift <= 63 do
                local byte = tvb(pos, 1):uint()
                value = value:bor(UInt64(bit32.band(byte, 0x7F)):lshift(shift))
                pos = pos + 1
                if bit32.band(byte, 0x80) == 0 then return value, pos end
                shift = shift + 7
            end
            return nil, pos
        end

        -- A varint as a Lua number, or nil when it is missing or above 2^40.
        local function small(tvb, off, stop)
            local value, after = varint(tvb, off, stop)
            if value == nil or value > UInt64(0, 256) then return nil, after end
            return value:tonumber(), after
        end

        local walk

        -- Adds one value of type `t` in field `f` (found at `start`, `len` bytes, wire type `wt`).
        local function add_value(tvb, tree, f, t, wt, start, len, value, depth)
            local range = tvb(start, len)
            local k = t.k
            if k == "uint" then
                tree:add(f.pf, range, value)
            elseif k == "sint" then
                local half = value:rshift(1)
                local signed = Int64(half:lower(), half:higher())
                if value:band(UInt64(1)) == UInt64(1) then signed = -signed - 1 end
                tree:add(f.pf, range, signed)
            elseif k == "bool" then
                tree:add(f.pf, range, value ~= UInt64(0))
            elseif k == "enum" then
                tree:add(f.pf, range, value:tonumber())
            elseif k == "f64" or k == "f32" or k == "ts" or k == "x64" or k == "x32" then
                tree:add_le(f.pf, range)
            elseif k == "string" then
                tree:add(f.pf, range, range:string(ENC_UTF_8))
            elseif k == "bytes" or k == "uuid" then
                if k == "uuid" and len ~= 16 then
                    tree:add(F.problem, range, f.name .. ": a UUID of " .. len .. " bytes")
                else
                    tree:add(f.pf, range)
                end
            elseif k == "named" or k == "map" or k == "empty" then
                local sub = tree:add(f.pf, range)
                if k == "named" then
                    walk(tvb, start, start + len, sub, TYPES[t.name], depth + 1)
                elseif k == "map" then
                    walk(tvb, start, start + len, sub, t, depth + 1)
                end
            end
        end

        local FIXED = { [1] = 8, [5] = 4 }
        local PACKED_WIRE = { uint = 0, sint = 0, bool = 0, enum = 0, f64 = 1, ts = 1, x64 = 1, f32 = 5, x32 = 5 }

        -- Reads the fields from `off` to `stop` as type `ty` (a TYPES entry, or a map entry's).
        walk = function(tvb, off, stop, tree, ty, depth)
            if ty == nil or depth > 64 then
                if off < stop then tree:add(F.unknown, tvb(off, stop - off)) end
                return
            end
            local pos = off
            while pos < stop do
                local key, after = varint(tvb, pos, stop)
                if key == nil then
                    tree:add(F.problem, tvb(pos, stop - pos), "truncated field key")
                    return
                end
                local number = key:rshift(3):tonumber()
                local wt = key:band(UInt64(7)):tonumber()
                local start, len, value = after, 0, nil
                if wt == 0 then
                    value, after = varint(tvb, start, stop)
                    if value == nil then tree:add(F.problem, tvb(pos, stop - pos), "truncated varint"); return end
                    len = after - start
                elseif FIXED[wt] then
                    len = FIXED[wt]
                    if start + len > stop then tree:add(F.problem, tvb(pos, stop - pos), "truncated fixed field"); return end
                elseif wt == 2 then
                    local n
                    n, start = small(tvb, after, stop)
                    if n == nil or start + n > stop then tree:add(F.problem, tvb(pos, stop - pos), "a length past the end"); return end
                    len = n
                else
                    tree:add(F.problem, tvb(pos, stop - pos), "unknown wire type " .. wt)
                    return
                end
                local f = ty.fields[number]
                if f == nil then
                    tree:add(F.unknown, tvb(pos, start + len - pos)):append_text(" (field " .. number .. ", wire type " .. wt .. ")")
                elseif f.t.k == "array" then
                    local elem = f.t.elem
                    local packed = PACKED_WIRE[elem.k]
                    if wt == 2 and packed ~= nil then
                        local p = start
                        while p < start + len do
                            if packed == 0 then
                                local v, q = varint(tvb, p, start + len)
                                if v == nil then tree:add(F.problem, tvb(p, start + len - p), "truncated packed varint"); break end
                                add_value(tvb, tree, f, elem, 0, p, q - p, v, depth)
                                p = q
                            else
                                local size = FIXED[packed]
                                if p + size > start + len then tree:add(F.problem, tvb(p, start + len - p), "truncated packed value"); break end
                                add_value(tvb, tree, f, elem, packed, p, size, nil, depth)
                                p = p + size
                            end
                        end
                    else
                        add_value(tvb, tree, f, elem, wt, start, len, value, depth)
                    end
                elseif ty.kind == "union" and f.t.k == "empty" then
                    tree:add(f.pf, tvb(pos, start + len - pos))
                else
                    add_value(tvb, tree, f, f.t, wt, start, len, value, depth)
                end
                pos = start + len
            end
        end

        -- Dissects one frame at `off`; returns the offset after it, or nil when it is not one.
        local function dissect_frame(tvb, pinfo, tree, off)
            local total = tvb:len()
            if total - off < 7 or tvb(off, 1):uint() ~= 0xC7 then return nil end
            local length, after_length = small(tvb, off + 2, total)
            if length == nil then return nil end
            local stop = after_length + length
            if stop > total then stop = total end
            local t = tree:add(gw, tvb(off, stop - off))
            t:add(F.magic, tvb(off, 1))
            t:add(F.version, tvb(off + 1, 1))
            t:add(F.length, tvb(off + 2, after_length - off - 2), length)
            if after_length + length > total then
                t:add(F.problem, tvb(off, total - off), "the frame claims " .. length .. " bytes after its length field; " .. (total - after_length) .. " are here")
                return total
            end
            local kind_byte = tvb(after_length, 1):uint()
            local kind = bit32.band(kind_byte, 0x0F)
            t:add(F.kind, tvb(after_length, 1))
            t:add(F.compressed, tvb(after_length, 1))
            t:add(F.in_session, tvb(after_length, 1))
            t:add(F.delivered, tvb(after_length, 1))
            local body_stop = stop - 4
            local pos = after_length + 1
            -- A header varint into field `f` (64-bit fields take the UInt64, others a number).
            local function field(f, what, wide)
                local v, q = varint(tvb, pos, body_stop)
                if v == nil then
                    t:add(F.problem, tvb(pos, body_stop - pos), "truncated " .. what)
                    return nil
                end
                if wide then t:add(f, tvb(pos, q - pos), v) else t:add(f, tvb(pos, q - pos), v:tonumber()) end
                pos = q
                return v
            end
            if bit32.band(kind_byte, 0x40) ~= 0 then
                local start = pos
                local stream = field(F.stream, "delivery stream")
                if stream == nil then return stop end
                t:add(F.reliable, tvb(start, pos - start), stream:band(UInt64(1)) == UInt64(1))
                if field(F.sequence, "sequence", true) == nil then return stop end
            end
            local type_id = field(F.type_id, "type id")
            if type_id == nil then return stop end
            local id = type_id:tonumber()
            local info
            local fragment = nil
            if kind == 2 then
                local message_id = field(F.message_id, "message id", true)
                local index = field(F.index, "fragment index")
                local count = field(F.count, "fragment count")
                if message_id == nil or index == nil or count == nil then return stop end
                if field(F.total_length, "total length", true) == nil or field(F.offset, "offset", true) == nil then return stop end
                fragment = (index:tonumber() + 1) .. "/" .. count:tonumber()
            end
            if bit32.band(kind_byte, 0x20) ~= 0 and field(F.session, "session") == nil then return stop end
            local compressed = bit32.band(kind_byte, 0x10) ~= 0
            if compressed then
                if pos >= body_stop then t:add(F.problem, tvb(pos, 0), "truncated compression header"); return stop end
                t:add(F.codec, tvb(pos, 1))
                pos = pos + 1
                if field(F.dictionary_id, "dictionary id") == nil or field(F.content_size, "content size", true) == nil then return stop end
            end
            if kind == 1 then
                info = CONTROLS[id] or ("control " .. id)
                t:add(F.control, tvb(after_length, 1), info)
            else
                info = MESSAGES[id] or ("type " .. id)
                t:add(F.type_name, tvb(after_length, 1), info)
            end
            if pos < body_stop then
                if kind == 0 and not compressed and MESSAGES[id] ~= nil then
                    local payload = t:add(F.body, tvb(pos, body_stop - pos))
                    walk(tvb, pos, body_stop, payload, TYPES[MESSAGES[id]], 0)
                else
                    t:add(F.body, tvb(pos, body_stop - pos))
                end
            end
            t:add_le(F.crc32c, tvb(body_stop, 4))
            if fragment then info = info .. " fragment " .. fragment end
            if compressed then info = info .. " (compressed)" end
            t:append_text(", " .. info)
            pinfo.cols.info:append((tostring(pinfo.cols.info) ~= "" and " " or "") .. info)
            return stop
        end

        local function name_field(tvb, tree, f, pos, stop)
            local n, start = small(tvb, pos, stop)
            if n == nil or start + n > stop then return nil end
            tree:add(f, tvb(start, n), tvb(start, n):string(ENC_UTF_8))
            return start + n
        end

        function capture.dissector(tvb, pinfo, tree)
            pinfo.cols.protocol = "GroupWire"
            pinfo.cols.info:set("")
            if tvb:len() < 41 then return 0 end
            local header_length = tvb(2, 2):le_uint()
            local t = tree:add(capture, tvb(0, math.min(header_length, tvb:len())))
            t:add(C.version, tvb(0, 1))
            t:add(C.direction, tvb(1, 1))
            t:add_le(C.header_length, tvb(2, 2))
            t:add_le(C.session, tvb(4, 4))
            t:add(C.local_id, tvb(8, 16))
            t:add(C.peer, tvb(24, 16))
            local room_length = tvb(40, 1):uint()
            if 41 + room_length <= tvb:len() then t:add(C.room, tvb(41, room_length), tvb(41, room_length):string(ENC_UTF_8)) end
            if header_length >= tvb:len() then return tvb:len() end
            dissect_frame(tvb, pinfo, tree, header_length)
            return tvb:len()
        end

        function relay.dissector(tvb, pinfo, tree)
            local total = tvb:len()
            if total < 1 then return 0 end
            pinfo.cols.protocol = "GroupWire"
            local kind = tvb(0, 1):uint()
            local t = tree:add(relay, tvb(0, total))
            t:add(R.type, tvb(0, 1))
            local pos = 1
            local info = RELAY_TYPES[kind] or ("relay message " .. kind)
            if kind == 1 or kind == 3 or kind == 2 then
                if kind == 3 then
                    local count, after = small(tvb, pos, total)
                    if count == nil or after + 16 * count > total then t:add(F.problem, tvb(pos, total - pos), "truncated recipients"); return total end
                    t:add(R.count, tvb(pos, after - pos), count)
                    pos = after
                    for _ = 1, count do
                        t:add(R.recipient, tvb(pos, 16))
                        pos = pos + 16
                    end
                elseif kind == 2 then
                    if total < 17 then t:add(F.problem, tvb(pos, total - pos), "truncated source"); return total end
                    t:add(R.source, tvb(pos, 16))
                    pos = pos + 16
                end
                pinfo.cols.info:set(info .. ":")
                t:append_text(", " .. info)
                if pos < total then dissect_frame(tvb, pinfo, tree, pos) end
                return total
            elseif kind == 16 then
                t:add(R.id, tvb(pos, 16))
                pos = name_field(tvb, t, R.identity, pos + 16, total)
                if pos then pos = name_field(tvb, t, R.room, pos, total) end
                if pos then
                    local size, after = small(tvb, pos, total)
                    if size then t:add(R.max_frame, tvb(pos, after - pos), size) end
                end
            elseif kind == 17 then
                t:add(R.id, tvb(pos, 16))
                name_field(tvb, t, R.identity, pos + 16, total)
            elseif kind == 18 then
                t:add(R.id, tvb(pos, 16))
                if total > 17 then t:add(R.reason, tvb(17, 1)) end
            elseif kind == 32 then
                local code, after = small(tvb, pos, total)
                if code then
                    t:add(R.code, tvb(pos, after - pos), code)
                    name_field(tvb, t, R.text, after, total)
                end
            end
            pinfo.cols.info:set(info)
            t:append_text(", " .. info)
            return total
        end

        """#

    /// The fixed part after the tables: fields registered, dissectors hooked in.
    static let registration = #"""
        local all = {}
        for _, f in pairs(F) do all[#all + 1] = f end
        for _, f in pairs(PF) do all[#all + 1] = f end
        gw.fields = all
        local capture_fields = {}
        for _, f in pairs(C) do capture_fields[#capture_fields + 1] = f end
        capture.fields = capture_fields
        local relay_fields = {}
        for _, f in pairs(R) do relay_fields[#relay_fields + 1] = f end
        relay.fields = relay_fields

        -- Captures (link type 147, LINKTYPE_USER0) and the relay's WebSocket payloads.
        DissectorTable.get("wtap_encap"):add(wtap_encaps.USER0, capture)
        local ws_port = DissectorTable.get("ws.port")
        local registered_port = relay.prefs.port
        ws_port:add(registered_port, relay)
        function relay.prefs_changed()
            if relay.prefs.port ~= registered_port then
                ws_port:remove(registered_port, relay)
                registered_port = relay.prefs.port
                ws_port:add(registered_port, relay)
            end
        end
        """#
}
