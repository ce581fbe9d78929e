# Shared by every bin/ script: finds the project, builds it when needed, runs Java with the
# project's JVM flags (config/jvm.options). Source it; do not run it.

CHRONEX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

chronex_die() {
  echo "$(basename "$0"): $*" >&2
  exit 2
}

# Builds with Maven when the module (a path such as engine/core) was never built by a script, or
# any source or pom changed since.
chronex_ensure_built() {
  local module="$1" stamp="$CHRONEX_ROOT/$1/target/.built-by-bin"
  if [ ! -f "$stamp" ] || [ ! -d "$CHRONEX_ROOT/$module/target/lib" ] \
     || [ -n "$(find "$CHRONEX_ROOT" -path '*/target' -prune -o \( -name '*.java' -o -name pom.xml \) -newer "$stamp" -print -quit)" ]; then
    command -v mvn >/dev/null 2>&1 || chronex_die "Maven (mvn) is needed to build the project; install Maven 3.8+ and Java 17"
    echo "building chronex (mvn package, tests skipped)..." >&2
    mkdir -p "$CHRONEX_ROOT/$module/target"
    if ! (cd "$CHRONEX_ROOT" && mvn -B -ntp -DskipTests package) > "$CHRONEX_ROOT/$module/target/build.log" 2>&1; then
      tail -n 40 "$CHRONEX_ROOT/$module/target/build.log" >&2
      chronex_die "the build failed (whole log: $module/target/build.log)"
    fi
    touch "$stamp"
  fi
}

# JVM flags from config/jvm.options, one per line, comments skipped.
chronex_jvm_flags() {
  grep -v '^[[:space:]]*#' "$CHRONEX_ROOT/config/jvm.options" | grep -v '^[[:space:]]*$'
}

chronex_java() {
  command -v java >/dev/null 2>&1 || chronex_die "java is not on the PATH; install Java 17"
  local flags
  mapfile -t flags < <(chronex_jvm_flags)
  # shellcheck disable=SC2086 # JAVA_OPTS is a user-supplied list of flags
  exec java "${flags[@]}" ${JAVA_OPTS:-} "$@"
}

# The class path of a module as its jar and its dependency jars, in a fixed order. Sets CHRONEX_CP.
chronex_module_classpath() {
  local module="$1" dir="$CHRONEX_ROOT/$1/target" jar
  jar=$(ls "$dir"/chronex-*-0.1.0-SNAPSHOT.jar 2>/dev/null | head -1)
  [ -n "$jar" ] || chronex_die "no jar in $dir; run 'mvn -DskipTests package'"
  CHRONEX_CP="$jar:$(ls "$dir"/lib/*.jar | LC_ALL=C sort | tr '\n' ':')"
}

# A class-data-sharing archive for a module (target/app.jsa), which roughly halves JVM and
# Chronicle start-up (docs/recovery.md): after each build it is written once by running the given
# training class (a short run through start-up, with the JVM flags in JAVA_OPTS) under
# -XX:ArchiveClassesAtExit; later runs map it. Not written at the end of a real run: on Java 17 that
# can archive methods the JIT then never compiles. CHRONEX_CDS=off leaves it out. Call after
# chronex_module_classpath; sets CHRONEX_CDS_FLAGS (empty when there is no archive).
chronex_class_archive() {
  local module="$1" training="$2" dir="$CHRONEX_ROOT/$1/target"
  shift 2
  CHRONEX_CDS_FLAGS=""
  [ "${CHRONEX_CDS:-on}" != off ] || return 0
  local archive="$dir/app.jsa" quiet="-Xlog:cds=off -Xlog:cds+dynamic=off"
  if [ ! -f "$archive" ] || [ ! "$archive" -nt "$dir/.built-by-bin" ]; then
    rm -f "$archive"
    echo "writing the class-data archive for $module (once per build)..." >&2
    local flags partial="$archive.$$"
    mapfile -t flags < <(chronex_jvm_flags)
    # shellcheck disable=SC2086 # JAVA_OPTS is a list of flags
    if java "${flags[@]}" ${JAVA_OPTS:-} -XX:ArchiveClassesAtExit="$partial" $quiet -cp "$CHRONEX_CP" "$training" "$@" \
         > "$dir/class-archive.log" 2>&1 && [ -s "$partial" ]; then
      mv -f "$partial" "$archive"
    else
      rm -f "$partial"
      echo "$(basename "$0"): could not write the class-data archive (see $module/target/class-archive.log); starting without it" >&2
      return 0
    fi
  fi
  CHRONEX_CDS_FLAGS="-XX:SharedArchiveFile=$archive $quiet"
}
