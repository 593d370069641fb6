-- riodp: a Wireshark dissector for RapidIO link captures (docs/pcapng.md).
--
-- Reads riodp link frames, `length(16) | kind(8) | body`: the records of riodp's pcapng captures
-- (LINKTYPE_USER0, docs/pcapng.md §2) and the byte stream of a riodp TCP link (a TCP port
-- preference, and a heuristic on the HELLO frame's "RIOD" magic; docs/net-framing.md). Decodes
-- LP-Serial packets (prefix, Dev8/16/32 transport, CRC-16 and the early CRC checked; Types 7, 8,
-- 9, 10, 11, 13; Annex 2 session management messages in single-segment Type 11 and Type 9
-- packets) and control symbols CS24/CS48/CS64 (CRC-5/13/24 checked, the VoQ backpressure fields
-- in the seed or Part 12 format), with every field `riodp decode --json` prints.
--
--   tshark -X lua_script:contrib/wireshark/riodp.lua -r capture.pcapng -Y 'riodp.type9.streamid == 18'
--
-- For the Wireshark GUI, copy this file and the riodp/ folder beside it into the personal Lua
-- plugins folder (README.md "Wireshark"). The modules in riodp/ end in .luainc so that Wireshark,
-- which runs every *.lua file of its plugins folders, does not run them on their own.

-- Loaded once per Lua state, however many ways it was given (plugins folder, -X lua_script).
if rawget(_G, "riodp_dissector_loaded") then return end
rawset(_G, "riodp_dissector_loaded", true)

local R = {}
local dir = debug.getinfo(1, "S").source:match("^@(.*[/\\])") or ""
for _, name in ipairs({ "util", "fields", "packet", "type8", "type9", "symbol", "attributes", "smp" }) do
  local chunk, err = loadfile(dir .. "riodp/" .. name .. ".luainc")
  if not chunk then error("riodp: cannot load its module " .. name .. ": " .. tostring(err)) end
  chunk(R)
end

local riodp = Proto("riodp", "RapidIO (riodp link frames)")
riodp.fields = R.FIELDS
riodp.experts = R.EXPERTS

local VOQ_FORMATS = { { 1, "seed", 1 }, { 2, "part12-rev4.1", 2 } }
riodp.prefs.voq_format = Pref.enum("CS48 VoQ stype2 format", 1,
  "How the stype2 field of Control Symbol 48 is read (riodp decode --voq-format): seed (voq-backpressure.txt §3.1) or part12-rev4.1 (Part 12 §3.1)",
  VOQ_FORMATS, false)
riodp.prefs.voq_group_size = Pref.uint("Part 12 port group size", 0,
  "Bits of the port group in Part 12 VoQ backpressure messages, 0-6 (riodp decode --voq-group-size; CS48 part12-rev4.1 and CS64)")
riodp.prefs.smp = Pref.bool("Decode session management messages", true,
  "Decode the Annex 2 message a single-segment Type 11 message or Type 9 segment may carry (riodp decode --smp)")
riodp.prefs.tcp_ports = Pref.range("TCP ports", "4000-4003",
  "TCP ports of riodp links (riodp switch and riodp endpoint); other ports are found by the HELLO frame", 65535)

local KIND_NAMES = { [0x01] = "packet", [0x02] = "cs48", [0x03] = "cs64", [0x04] = "cs24", [0x05] = "packetCs24", [0x10] = "hello", [0x11] = "close" }
local CLOSE_REASONS = { [0] = "normal", "protocol", "version", "application" }

--- The field of item key `key` under `prefix` (the naming rule of fields.luainc).
local function abbrev_of(prefix, key)
  local lower = key:lower()
  if lower == "quotedcommand" and prefix:sub(-14) == ".quotedcommand" then return prefix end
  return prefix .. "." .. lower
end

--- Adds decode items to `tree`; `map` turns an item's offset into one of `tvb`; `top` names top-level keys.
local function render(tree, tvb, map, items, prefix, top)
  for _, it in ipairs(items) do
    local abbrev = top and top(it.key) or abbrev_of(prefix, it.key)
    local f = R.F[abbrev] or error("riodp: no field " .. abbrev)
    local kind = R.FT[abbrev]
    local off, len = map(it.at), it.len
    if kind == "b" then len = #it.v end
    if off + len > tvb:len() then len = math.max(0, tvb:len() - off) end
    local range = tvb:range(math.min(off, tvb:len()), len)
    if it.items then
      local sub = tree:add(f, range)
      if it.label then sub:set_text(it.label) end
      render(sub, tvb, map, it.items, abbrev)
    elseif kind == "s" then
      tree:add(f, range, tostring(it.v))
    else
      tree:add(f, range, it.v)
    end
  end
end

local function report(tree, list, e)
  for _, s in ipairs(list) do tree:add_proto_expert_info(e, s.msg) end
end

local function prefs()
  return { voq_format = riodp.prefs.voq_format == 2 and "part12-rev4.1" or "seed", voq_group_size = math.min(riodp.prefs.voq_group_size, 6) }
end

--- A packet record's body: the LP-Serial packet, and the message a single segment carries.
local function packet(tvb, tree, at, len, ackbits)
  local body = R.bytes(tvb, at, len)
  local res = R.decode_packet(body, len, ackbits)
  local map = R.packet_map(res, at)
  local ftype = res.ftype
  render(tree, tvb, map, res.items, nil, function(key)
    if R.PACKET_COMMON[key] then return "riodp." .. key:lower() end
    return "riodp.type" .. ftype .. "." .. key:lower()
  end)
  local info = res.info or string.format("Type %s", tostring(ftype))
  if res.single and res.payload and riodp.prefs.smp and not res.err then
    -- Annex 2 §3.3: a single segment holds a whole message; the payload is read as one.
    local p = res.payload
    local items, smp_strict = {}, {}
    local bytes = {}
    for i = 0, p.len - 1 do bytes[i] = res.logical[p.at + i] end
    local err = R.try(R.decode_smp, bytes, 0, p.len, items, smp_strict)
    if err then
      tree:add(tvb:range(map(p.at), 0), "Payload is no session management message: " .. err.msg)
    elseif items[1].v == "UNKNOWN" then
      tree:add(tvb:range(map(p.at), 0), string.format("Payload is no session management message: <CMD> 0x%02x is not an Annex 2 command", bytes[0]))
    else
      local smp = { { key = "smp", at = 0, len = p.len, items = items, label = "Session management message (Annex 2): " .. items[1].v } }
      render(tree, tvb, function(i) return map(p.at + i) end, smp, "riodp")
      report(tree, smp_strict, R.E.smp)
      info = info .. " [" .. items[1].v .. "]"
    end
  end
  return res, info
end

--- HELLO, CLOSE and reserved kinds (docs/net-framing.md §3.4–§3.6).
local function link_frame(tvb, tree, at, len, kind)
  local b = R.bytes(tvb, at, len)
  local res = { items = {}, strict = {} }
  local name = KIND_NAMES[kind] or "reserved"
  res.err = R.try(function()
    if kind == 0x10 then
      R.need(len, 0, 5, "hello")
      if b[0] ~= 0x52 or b[1] ~= 0x49 or b[2] ~= 0x4f or b[3] ~= 0x44 then R.fail('a HELLO body starts with "RIOD" (riodp link §3.4)', 0) end
      local version = R.put(res.items, "version", b[4], 4, 1)
      if len > 5 then
        R.put(res.items, "ext", R.raw(b, 5, len - 5), 5, len - 5)
        if version == 1 then R.strict(res.strict, "a version 1 HELLO body is 5 bytes (riodp link §3.4)", 5) end
      end
      res.info = "HELLO version " .. version
    elseif kind == 0x11 then
      R.need(len, 0, 1, "reason")
      local reason = R.put(res.items, "reason", b[0], 0, 1)
      local rname = R.put(res.items, "reasonName", CLOSE_REASONS[reason] or "RESERVED", 0, 1)
      if rname == "RESERVED" then R.strict(res.strict, "close reason " .. reason .. " is reserved (riodp link §3.5)", 0) end
      if len - 1 > 255 then R.fail("the text is at most 255 bytes (riodp link §3.5)", 256) end
      if not R.utf8(b, 1, len) then R.fail("the text is not UTF-8 (riodp link §3.5)", 1) end
      local text = R.put(res.items, "text", R.raw(b, 1, len - 1), 1, len - 1)
      res.info = "CLOSE " .. rname .. (text ~= "" and ": " .. text or "")
    else
      R.put(res.items, "body", R.raw(b, 0, len), 0, len)
      R.strict(res.strict, string.format("frame kind 0x%02x is not defined in link version 1 (riodp link §3.6)", kind), -1)
      res.info = string.format("reserved kind 0x%02x", kind)
    end
  end)
  render(tree, tvb, function(i) return at + i end, res.items, "riodp." .. name)
  return res, res.info
end

--- One record (link frame) at tvb[off, off + size): its length field, kind and body.
local function record(tvb, pinfo, tree, off, size)
  local t = tree:add(riodp, tvb:range(off, size))
  local length = tvb:range(off, 2):uint()
  t:add(R.F["riodp.length"], tvb:range(off, 2), length)
  if length == 0 then
    t:add_proto_expert_info(R.E.malformed, "a frame length of 0 leaves no kind byte (riodp link §2)")
    return "length 0"
  end
  local kind = tvb:range(off + 2, 1):uint()
  local name = KIND_NAMES[kind] or "RESERVED"
  t:add(R.F["riodp.kind"], tvb:range(off + 2, 1), kind)
  t:add(R.F["riodp.kindname"], tvb:range(off + 2, 1), name)
  local at, len = off + 3, size - 3
  if 2 + length ~= size then
    t:add_proto_expert_info(R.E.malformed, string.format("the length field says %d bytes follow it, %d given (riodp capture §2)", length, size - 2))
  end
  local res, info
  if kind == 0x01 or kind == 0x05 then
    res, info = packet(tvb, t, at, len, kind == 0x05 and 5 or 6)
  elseif kind == 0x02 or kind == 0x04 then
    res = R.decode_symbol(name, R.bytes(tvb, at, len), len, prefs())
    render(t, tvb, function(i) return at + i end, res.items, "riodp." .. name)
    info = res.info
  elseif kind == 0x03 then
    res = R.decode_symbol64(R.bytes(tvb, at, len), len, prefs())
    render(t, tvb, function(i) return at + i end, res.items, "riodp.cs64")
    info = res.info
  else
    res, info = link_frame(tvb, t, at, len, kind)
  end
  if res.err then
    t:add_proto_expert_info(res.err.crc and R.E.crc or R.E.malformed, res.err.msg)
    info = (info or name) .. (res.err.crc and " [bad CRC]" or " [malformed]")
  else
    -- Only a record that decodes is judged by the strict rules: after a bad CRC they would be noise.
    report(t, res.strict, R.E.reserved)
  end
  t:append_text(", " .. (info or name))
  return info or name
end

--- A capture record (LINKTYPE_USER0): the Enhanced Packet Block's data is one record.
function riodp.dissector(tvb, pinfo, tree)
  pinfo.cols.protocol = "RapidIO"
  if tvb:len() < 3 then
    tree:add(riodp, tvb()):add_proto_expert_info(R.E.malformed, "a record is at least 3 bytes (riodp capture §2)")
    return tvb:len()
  end
  pinfo.cols.info = record(tvb, pinfo, tree, 0, tvb:len())
  return tvb:len()
end

--- A TCP link: frames one after the other, reassembled across segments.
local function stream(tvb, pinfo, tree)
  local off, total = 0, tvb:len()
  local infos = {}
  while off < total do
    if total - off < 3 then
      pinfo.desegment_offset, pinfo.desegment_len = off, DESEGMENT_ONE_MORE_SEGMENT
      break
    end
    local length = tvb:range(off, 2):uint()
    if length == 0 then
      infos[#infos + 1] = record(tvb, pinfo, tree, off, total - off)
      off = total
      break
    end
    if off + 2 + length > total then
      pinfo.desegment_offset, pinfo.desegment_len = off, off + 2 + length - total
      break
    end
    infos[#infos + 1] = record(tvb, pinfo, tree, off, 2 + length)
    off = off + 2 + length
  end
  if #infos > 0 then
    pinfo.cols.protocol = "RapidIO"
    pinfo.cols.info = table.concat(infos, " | ")
  end
  return total
end

local tcp_proto = Proto("riodptcp", "RapidIO over a riodp TCP link")
tcp_proto.dissector = stream

--- A TCP stream that starts with a HELLO frame ('R' 'I' 'O' 'D', docs/net-framing.md §3.4).
local function heuristic(tvb, pinfo, tree)
  if tvb:len() < 8 then return false end
  if tvb:range(2, 1):uint() ~= 0x10 or tvb:range(3, 4):string() ~= "RIOD" or tvb:range(0, 2):uint() < 6 then return false end
  pinfo.conversation = tcp_proto
  stream(tvb, pinfo, tree)
  return true
end

DissectorTable.get("wtap_encap"):add(wtap_encaps.USER0, riodp)
local ports = riodp.prefs.tcp_ports
DissectorTable.get("tcp.port"):add(ports, tcp_proto)
tcp_proto:register_heuristic("tcp", heuristic)

function riodp.prefs_changed()
  if riodp.prefs.tcp_ports ~= ports then
    DissectorTable.get("tcp.port"):remove(ports, tcp_proto)
    ports = riodp.prefs.tcp_ports
    DissectorTable.get("tcp.port"):add(ports, tcp_proto)
  end
end
