#!/usr/bin/env python3
"""Builds a class as Canvas hands it to an instructor (issue 32), for tests/kit/canvas_class.sh.

usage: make_class.py KIT_DIR OUT

Writes OUT/submissions/ (the unzipped "Download Submissions" of one assignment, plus what an
instructor ends up adding beside it) and OUT/roster.csv (Canvas's gradebook export). Every
student's expected status, score, notes and export cell are in expected.tsv beside this file,
under the same names.

Canvas names every uploaded file <student>_[late_]<user id>_<submission id>_<file>, where
<student> is the user's sortable name ("Last, First") with everything but word characters
removed and lower-cased: letters of every script, digits and '_' stay ("García, José" ->
garcíajosé, "O_Brien, Pat" -> o_brienpat). The late
flag is "LATE" in most versions and "late" where the whole prefix is lower-cased. A second
upload of the same name within one submission gets "-1", "-2" before the extension. Canvas's
gradebook export starts with a byte-order mark, has a "Points Possible" row, and lists the
course's Test Student (no SIS id).

The files are the kit's solutions and stubs of two quick exercises (flops, random_features), so
that the builds repeat (the grader's build cache) and the checks take seconds.
"""
import io
import os
import sys
import tarfile
import zipfile


def canvas_word(sortable):
    """Canvas's <student>: letters, digits and '_' of any script, lower-cased."""
    return "".join(c for c in sortable if c.isalnum() or c == "_").lower()


def main():
    kit, out = sys.argv[1], sys.argv[2]
    sol = lambda ex: open(os.path.join(kit, "solutions", ex, ex + ".cpp"), "rb").read()
    stub = lambda ex: open(os.path.join(kit, "exercises", ex, ex + ".cpp"), "rb").read()
    sub = os.path.join(out, "submissions")
    os.makedirs(sub)

    def put(name, data):
        with open(os.path.join(sub, name), "wb") as f:
            f.write(data)

    def canvas(sortable, user, submission, filename, data, late=""):
        """One uploaded file as Canvas names it; late is "", "LATE" or "late"."""
        flag = late + "_" if late else ""
        put("%s_%s%d_%d_%s" % (canvas_word(sortable), flag, user, submission, filename), data)

    def zipped(entries):
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            for name, data in entries:
                z.writestr(name, data)
        return buf.getvalue()

    both = lambda: [("flops.cpp", sol("flops")), ("random_features.cpp", sol("random_features"))]
    # (sortable name, Canvas user id, SIS user id, SIS login): the roster, in Canvas's order.
    roster = []

    def student(sortable, user, sis, login):
        roster.append((sortable, user, sis, login))
        return sortable, user

    # Plain, on time, both files: names as Canvas writes them from any script.
    for sortable, user, sis, login in [
        ("Lovelace, Ada", 1002, "S1002", "ada"),
        ("Turing, Alan", 1003, "S1003", "alan"),
        ("García, José", 101007, "S101007", "jose"),
        ("李明", 1005, "S1005", "liming"),
        ("O'Brien, Liam", 1020, "S1020", "liam"),
        ("Picard, Jean-Luc", 1021, "S1021", "jeanluc"),
        ("Ångström, Anders", 1022, "S1022", "anders"),
        ("Núñez, Lucía", 1023, "S1023", "lucia"),
        ("Παπαδόπουλος, Δημήτρης", 1024, "S1024", "dimitris"),
    ]:
        student(sortable, user, sis, login)
        for i, (name, data) in enumerate(both()):
            canvas(sortable, user, 50000 + user * 10 + i, name, data)

    # Late, the flag in lower case (some Canvas versions lower-case the whole prefix).
    s = student("Hopper, Grace", 1006, "S1006", "grace")
    for name, data in both():
        canvas(*s, 61006, name, data, late="late")
    # Late, _LATE_, and a resubmission: the stub first, then her work as random_features-1.cpp.
    s = student("Lee, Kim", 1007, "S1007", "kim")
    canvas(*s, 500, "flops.cpp", sol("flops"))
    canvas(*s, 500, "random_features.cpp", stub("random_features"))
    canvas(*s, 900, "random_features-1.cpp", sol("random_features"), late="LATE")
    # A competing file: a loose flops.cpp (the stub) beside a zip holding her real one.
    s = student("Aziz, Noor", 1008, "S1008", "noor")
    canvas(*s, 600, "flops.cpp", stub("flops"))
    canvas(*s, 600, "work.zip", zipped([("work/flops/flops.cpp", sol("flops")),
                                        ("work/random_features.cpp", sol("random_features"))]))
    # Archives the grader does not unpack.
    s = student("Okafor, Chidi", 1009, "S1009", "chidi")
    canvas(*s, 610, "homework.rar", b"Rar!\x1a\x07\x00 not really")
    s = student("Ross, Sam", 1025, "S1025", "sam")
    canvas(*s, 710, "work.7z", b"7z\xbc\xaf\x27\x1c not really")
    # A near-miss name: rf_draft.cpp is random_features.cpp under another name.
    s = student("Petrov, Ivan", 1010, "S1010", "ivan")
    canvas(*s, 620, "flops.cpp", sol("flops"))
    canvas(*s, 620, "rf_draft.cpp", sol("random_features"))
    # The stubs as handed out.
    s = student("Nguyen, Lan", 1012, "S1012", "lan")
    canvas(*s, 640, "flops.cpp", stub("flops"))
    canvas(*s, 640, "random_features.cpp", stub("random_features"))
    # A zip made on a Mac (__MACOSX debris), a .tar.gz, names a browser gives a second download.
    s = student("Brown, Mia", 1014, "S1014", "mia")
    canvas(*s, 650, "hw.zip", zipped([("hw/flops/flops.cpp", sol("flops")),
                                      ("hw/random_features/random_features.cpp",
                                       sol("random_features")),
                                      ("__MACOSX/hw/flops/._flops.cpp", b"\x00\x05\x16\x07")]))
    s = student("Davis, Eli", 1015, "S1015", "eli")
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, data in both():
            info = tarfile.TarInfo("submission/" + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    canvas(*s, 660, "submission.tar.gz", buf.getvalue())
    s = student("Wilson, Omar", 1016, "S1016", "omar")
    canvas(*s, 670, "Flops (1).cpp", sol("flops"))
    canvas(*s, 670, "random_features (1).cpp", sol("random_features"))
    # A zip named in Chinese, with a non-ASCII name inside; one with a legacy code page's name.
    s = student("王芳", 1017, "S1017", "wangfang")
    canvas(*s, 680, "作业1.zip", zipped([("作业1/flops.cpp", sol("flops")),
                                        ("作业1/random_features.cpp", sol("random_features")),
                                        ("作业1/notes_é.txt", "é".encode())]))
    s = student("Müller, Jonas", 1018, "S1018", "jonas")
    legacy = zipped([("abgabe/flops.cpp", sol("flops")),
                     ("abgabe/random_features.cpp", sol("random_features")),
                     ("abgabe/#bung.txt", b"notes")])
    # "Übung" as code page 437 writes it (0x9A), unflagged: the bytes an old archiver leaves.
    canvas(*s, 690, "abgabe.zip", legacy.replace(b"abgabe/#bung.txt", b"abgabe/\x9abung.txt"))
    # Mallory has her own Canvas files, and left mallory_1002.zip (the stubs) in the class
    # folder: 1002 is Ada's Canvas id, which must not give Ada Mallory's grade.
    s = student("Mallet, Mallory", 1019, "S1019", "mallory")
    for i, (name, data) in enumerate(both()):
        canvas(*s, 700 + i, name, data)
    put("mallory_1002.zip", zipped([("flops.cpp", stub("flops")),
                                    ("random_features.cpp", stub("random_features"))]))
    # A name with '_' in it, as Canvas keeps it: o_brienpat_1026_...
    s = student("O_Brien, Pat", 1026, "S1026", "pat")
    for i, (name, data) in enumerate(both()):
        canvas(*s, 740 + i, name, data)
    # Names chosen to make Canvas's file names read as another student's: "Lovelaceada_1002"
    # (user 1027) writes lovelaceada_1002_1027_750_flops.cpp, which also reads as Ada's (1002)
    # upload "750_flops.cpp"; "Turingalan_LATE_1003" (user 1028) writes a name that also reads
    # as Alan's, late. The roster confirms both readings of each: graded for nobody, said.
    s = student("Lovelaceada_1002", 1027, "S1027", "mal2")
    canvas(*s, 750, "flops.cpp", stub("flops"))
    s = student("Turingalan_LATE_1003", 1028, "S1028", "eve")
    canvas(*s, 760, "flops.cpp", stub("flops"))
    # In the roster, nothing handed in.
    student("Smith, Sam", 1013, "S1013", "ssmith")
    # What an instructor adds by hand: a folder named with 255 bytes (a file name's limit on
    # Linux: no name of 260 bytes can exist), a loose zip whose name is 251 bytes before .zip,
    # and a stray file.
    long_folder = os.path.join(sub, "late-upload-by-email-" + "x" * (255 - 21))
    os.makedirs(long_folder)
    for name, data in both():
        with open(os.path.join(long_folder, name), "wb") as f:
            f.write(data)
    put("y" * 251 + ".zip", zipped(both()))
    put("notes.txt", b"grading notes\n")

    # Canvas's gradebook export: BOM, CRLF, the Points Possible row, the Test Student.
    lines = ["Student,ID,SIS User ID,SIS Login ID,Section,Week 2 (5512)",
             "    Points Possible,,,,,20.00"]
    for sortable, user, sis, login in roster:
        lines.append('"%s",%d,%s,%s,Section 1,' % (sortable, user, sis, login))
    lines.append('"Student, Test",1099,,b1c2d3e4test,Section 1,')
    with open(os.path.join(out, "roster.csv"), "wb") as f:
        f.write(b"\xef\xbb\xbf" + ("\r\n".join(lines) + "\r\n").encode())


if __name__ == "__main__":
    main()
