package io.signalman.datadir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A data directory with files of ours but no manifest: written by the previous version (format 1:
 * no manifest, no checksums), which is upgraded in place by listing its files as they are, marked
 * legacy; or written by this one whose manifest was lost (some file carries checksums), which is
 * refused unless the operator accepts the loss.
 */
final class FormatOne {

    private static final Logger LOG = LoggerFactory.getLogger(FormatOne.class);

    private FormatOne() {
    }

    /**
     * No manifest, but files of ours: format 1 (nothing sealed), upgraded by listing them as they
     * are; or format 2 whose manifest was deleted (something sealed), refused unless the loss is
     * accepted. Returns whether it upgraded.
     */
    static boolean adopt(Path root, Manifest m, List<String> present, boolean acceptLoss) throws IOException {
        boolean sealed = false;
        for (String rel : present) {
            if (!rel.endsWith(".tmp") && DataDirFiles.sealed(root.resolve(rel))) {
                sealed = true;
                break;
            }
        }
        if (sealed && !acceptLoss) {
            throw new DataDirRefused(root.resolve(Manifest.NAME) + " is missing, but " + root + " holds files written with "
                    + "checksums (this version's): the manifest was deleted or lost, so nothing says whether other pieces "
                    + "went with it. Restore it from a backup, or start with --accept-data-loss to list the files present "
                    + "as they are (signalman data verify --data " + root + " shows what is there)");
        }
        for (String rel : present) {
            if (!rel.endsWith(".tmp")) {
                m.list(rel, null, null, !sealed);
            }
        }
        if (sealed) {
            LOG.error("data directory {}: the manifest was missing; the {} files present are listed as they are "
                    + "(--accept-data-loss)", root, present.size());
            return false;
        }
        LOG.warn("data directory {} was written by the previous version (format 1: no manifest, no checksums); upgrading it "
                + "in place: {} files listed as they are, the state written anew with checksums", root, present.size());
        return true;
    }

}
