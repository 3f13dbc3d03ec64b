package dev.ecommsync.mongo;

import java.util.Collection;
import java.util.List;

import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.bson.BsonRegularExpression;
import de.bwaldvogel.mongo.bson.Document;

/**
 * The {@code _id} index for a filter that names {@code _id} beside other fields.
 *
 * <p>mongo-java-server uses an index only when the filter names exactly that index's fields, so a
 * compare-and-set such as {@code {_id, rev}} scanned the whole collection unless a unique index on
 * {@code {_id, rev}} existed, and every such index costs each insert and update its keys. MongoDB
 * itself serves these filters with the {@code _id} index and checks the other fields on the one
 * document it finds; this does the same (decision 15, addendum of 2026-11-27, night). A filter
 * some other index covers whole keeps mongo-java-server's own choice.
 *
 * <p>An {@code _id} given as an {@code $in} list of plain values (strings and numbers) is answered
 * exactly by the index, alone or beside other fields: the documents found are checked against the
 * rest of the filter only ({@link #rest}). mongo-java-server checked each of them against the whole
 * list again, n² comparisons for a list of n, which is why reads were cut into lists of 25.
 */
final class IdIndexLookup {

    private static final String ID = "_id";

    private IdIndexLookup() {
    }

    /**
     * The positions the {@code _id} index gives for the filter's {@code _id} (a value or {@code $in}),
     * to be matched against the whole filter; null when another index covers the filter whole, the
     * filter has no such {@code _id}, or the collection has no {@code _id} index.
     */
    static <P> Iterable<P> positions(List<Index<P>> indexes, Document query) {
        if (!query.containsKey(ID) || (query.size() < 2 && !isPlainInList(query.get(ID)))) {
            return null;
        }
        Index<P> idIndex = null;
        for (Index<P> index : indexes) {
            if (index.getKeys().size() == 1 && ID.equals(index.getKeys().get(0).getKey())) {
                idIndex = index;
            } else if (index.canHandle(query)) {
                return null;
            }
        }
        if (idIndex == null) {
            return null;
        }
        Object id = query.get(ID);
        if (hasRegexInList(id)) {
            return null;
        }
        Document idOnly = new Document(ID, id);
        return idIndex.canHandle(idOnly) ? idIndex.getPositions(idOnly) : null;
    }

    /**
     * What the documents {@link #positions} found must still match: the filter without its
     * {@code _id} where that is a plain {@code $in} list (the index found exactly those), else all of it.
     */
    static Document rest(Document query) {
        if (!isPlainInList(query.get(ID))) {
            return query;
        }
        Document rest = new Document(query);
        rest.remove(ID);
        return rest;
    }

    /** {@code {$in: [...]}} alone, listing only strings and numbers: values the index compares as MongoDB does. */
    private static boolean isPlainInList(Object id) {
        return id instanceof Document condition
            && condition.size() == 1
            && condition.get("$in") instanceof Collection<?> values
            && values.stream().allMatch(value -> value instanceof String || value instanceof Integer || value instanceof Long || value instanceof Double);
    }

    /** An {@code $in} that lists a regular expression: the index looks each listed value up as a key, a scan matches the expression. */
    private static boolean hasRegexInList(Object id) {
        return id instanceof Document condition
            && condition.get("$in") instanceof Collection<?> values
            && values.stream().anyMatch(BsonRegularExpression::isRegularExpression);
    }
}
