# Runs a Homebrew formula's install, post_install and test blocks against an
# unpacked release tarball, with the part of Homebrew's formula DSL they use
# (as Homebrew defines it: Pathname#install moves, #install_symlink links,
# libexec, bin, man1, bash_completion, zsh_completion under the keg). The
# current directory of install is the tarball's top directory, as brew stages
# it. Prints the formula's fields, one `name=value` a line.
#
#   ruby formula_check.rb FORMULA STAGED_DIR KEG
require "fileutils"
require "open3"
require "pathname"

class Pathname
  def install(*sources)
    mkpath
    sources.flatten.each { |source| FileUtils.mv(source.to_s, (self / File.basename(source.to_s)).to_s) }
  end

  def install_symlink(*targets)
    mkpath
    targets.flatten.each do |target|
      raise "#{target}: no such file to link to" unless File.exist?(target.to_s)
      (self / File.basename(target.to_s)).make_symlink(target.to_s)
    end
  end
end

class Formula
  class << self
    def fields
      @fields ||= {}
    end

    %i[desc homepage url version sha256 license].each do |name|
      define_method(name) { |value| fields[name] = value }
    end

    def depends_on(spec)
      (fields[:depends_on] ||= []) << spec
    end

    def test(&block)
      @test_block = block
    end

    attr_reader :test_block
  end

  attr_reader :prefix

  def initialize(prefix)
    @prefix = Pathname(prefix)
  end

  def libexec = prefix / "libexec"
  def bin = prefix / "bin"
  def man1 = prefix / "share/man/man1"
  def bash_completion = prefix / "etc/bash_completion.d"
  def zsh_completion = prefix / "share/zsh/site-functions"
  def version = self.class.fields.fetch(:version)

  def system(*command)
    Kernel.system(*command.map(&:to_s)) or raise "failed: #{command.join(" ")}"
  end

  def shell_output(command)
    out, status = Open3.capture2(command)
    raise "#{command}: #{status}" unless status.success?
    out
  end

  def assert_equal(expected, actual)
    raise "expected #{expected.inspect}, got #{actual.inspect}" unless expected == actual
  end

  def run_test
    instance_eval(&self.class.test_block)
  end
end

formula_file, staged, keg = ARGV
load formula_file
formula_class = Object.const_get(File.basename(formula_file, ".rb").capitalize)
formula = formula_class.new(keg)
Dir.chdir(staged) { formula.install }
formula.post_install
formula.run_test
formula_class.fields.each { |name, value| puts "#{name}=#{value.inspect}" }
