package dev.ecommsync.mongo;

import de.bwaldvogel.mongo.bson.Document;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per collection and command: how many commands the server ran, the documents they carried or
 * returned, and the time it spent on them. serverStatus reports it as {@code ecommCommandStats};
 * the benchmark's end-to-end figure diffs it to say which collection's work costs the most.
 * Documents: an insert's documents, an update's or delete's statements, the documents a find,
 * aggregate or getMore returned in its batch.
 */
final class CommandStats {

    private record Key(String database, String collection, String command) {}

    private static final class Totals {
        final LongAdder commands = new LongAdder();
        final LongAdder documents = new LongAdder();
        final LongAdder nanos = new LongAdder();
    }

    private final Map<Key, Totals> totals = new ConcurrentHashMap<>();

    void add(String database, String command, Document query, Document result, long nanos) {
        String name = command.toLowerCase(Locale.ROOT);
        Object target = "getmore".equals(name) ? query.get("collection") : query.get(command);
        String collection = target instanceof String value ? value : "";
        Totals entry = totals.computeIfAbsent(new Key(database, collection, name), key -> new Totals());
        entry.commands.increment();
        entry.documents.add(documentsOf(name, query, result));
        entry.nanos.add(nanos);
    }

    private static long documentsOf(String command, Document query, Document result) {
        return switch (command) {
            case "insert" -> sizeOf(query.get("documents"));
            case "update" -> sizeOf(query.get("updates"));
            case "delete" -> sizeOf(query.get("deletes"));
            case "find", "aggregate", "getmore" -> {
                if (result != null && result.get("cursor") instanceof Document cursor) {
                    yield sizeOf(cursor.containsKey("firstBatch") ? cursor.get("firstBatch") : cursor.get("nextBatch"));
                }
                yield 0;
            }
            default -> 0;
        };
    }

    private static long sizeOf(Object value) {
        return value instanceof List<?> list ? list.size() : 0;
    }

    /** One entry per database, collection and command. */
    List<Document> toDocuments() {
        List<Document> entries = new ArrayList<>();
        totals.forEach((key, entry) -> entries.add(new Document()
            .append("db", key.database())
            .append("collection", key.collection())
            .append("command", key.command())
            .append("commands", entry.commands.sum())
            .append("documents", entry.documents.sum())
            .append("micros", entry.nanos.sum() / 1000)));
        return entries;
    }
}
